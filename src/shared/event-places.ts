import type { EventLocation } from './ipc/views.js'

const MODE_WORDS = { inperson: 'In person', virtual: 'Online', hybrid: 'In person and online' } as const
const STATUS_WORDS = { planned: 'Planned', scheduled: 'Scheduled', rescheduled: 'Rescheduled', cancelled: 'Cancelled', postponed: 'Postponed' } as const

/** How people attend, in words ("In person and online" for hybrid). */
export const modeInWords = (mode: keyof typeof MODE_WORDS) => MODE_WORDS[mode]
/** Where an event stands, in words. */
export const statusInWords = (status: keyof typeof STATUS_WORDS) => STATUS_WORDS[status]

/**
 * A place of any kind the published lexicon has, in words a person reads: an address as
 * it is written on an envelope, a point by its coordinates, a Foursquare place or an H3
 * cell by its name (or id), a link by its name and address. Never empty.
 */
export function placeInWords(l: EventLocation): string {
  const named = (what: string) => (l.name ? `${l.name} (${what})` : what)
  switch (l.kind) {
    case 'address':
      return [l.name, l.street, [l.postalCode, l.locality].filter(Boolean).join(' '), l.region, l.country].filter(Boolean).join(', ')
    case 'geo':
      return named(`at ${l.latitude}, ${l.longitude}${l.altitude ? `, ${l.altitude} m up` : ''}`)
    case 'fsq':
      return named(`Foursquare place ${l.placeId}`)
    case 'hthree':
      return named(`H3 area ${l.value}`)
    case 'uri':
      return l.name ? `${l.name}: ${l.uri}` : l.uri
  }
}

/** What kind of place it is, for a label before the words ("Address", "Online"). */
export const PLACE_KIND_WORDS: Record<EventLocation['kind'], string> = {
  address: 'Address',
  geo: 'Map point',
  fsq: 'Foursquare place',
  hthree: 'Area',
  uri: 'Online',
}
