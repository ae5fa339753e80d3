import { EVENT_MODES, EVENT_STATUSES, RSVP_STATUSES, type EventLocation } from '../../../shared/ipc/views.js'
import type { EventFieldsInput as EventFields } from '../../../shared/ipc/contract.js'
import { seriesLinkOf } from '../../../shared/recurrence.js'

/**
 * The published calendar records (lexicons/community/lexicon/, as lexicon.community
 * publishes them) turned into what Convene shows and back. Tokens are written whole
 * (`community.lexicon.calendar.event#hybrid`); on read a bare `hybrid` is taken too,
 * since apps (and Convene's own RSVPs before) have written those.
 */
export const EVENT_COLLECTION = 'community.lexicon.calendar.event'
export const RSVP_COLLECTION = 'community.lexicon.calendar.rsvp'

const EVENT_TOKEN = `${EVENT_COLLECTION}#`
const RSVP_TOKEN = `${RSVP_COLLECTION}#`
const URI_TYPE = `${EVENT_COLLECTION}#uri`
const PLACE_TYPES: Record<string, Exclude<EventLocation['kind'], 'uri'>> = {
  'community.lexicon.location.address': 'address',
  'community.lexicon.location.geo': 'geo',
  'community.lexicon.location.fsq': 'fsq',
  'community.lexicon.location.hthree': 'hthree',
}
const TYPE_OF_KIND: Record<EventLocation['kind'], string> = {
  address: 'community.lexicon.location.address',
  geo: 'community.lexicon.location.geo',
  fsq: 'community.lexicon.location.fsq',
  hthree: 'community.lexicon.location.hthree',
  uri: URI_TYPE,
}
/** The kinds Convene's form edits; an edit keeps the others as the record has them. */
const EDITED_KINDS = new Set<string>([TYPE_OF_KIND.address, TYPE_OF_KIND.uri])

/** A known token's short name, or null: `community.lexicon.calendar.event#hybrid` and `hybrid` are both `hybrid`. */
function shortToken<T extends string>(value: unknown, prefix: string, known: readonly T[]): T | null {
  if (typeof value !== 'string') return null
  const name = value.startsWith(prefix) ? value.slice(prefix.length) : value
  return known.includes(name as T) ? (name as T) : null
}

export const eventMode = (v: unknown) => shortToken(v, EVENT_TOKEN, EVENT_MODES)
export const eventStatus = (v: unknown) => shortToken(v, EVENT_TOKEN, EVENT_STATUSES)
export const rsvpStatus = (v: unknown) => shortToken(v, RSVP_TOKEN, RSVP_STATUSES)
export const rsvpToken = (status: (typeof RSVP_STATUSES)[number]) => `${RSVP_TOKEN}${status}`

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined)
/** Only the fields that are there, so two readings of one place compare equal. */
const defined = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T

/** One entry of a record's `locations` as Convene shows it, or null for a kind it does not know (or a malformed one). */
export function locationView(raw: unknown): EventLocation | null {
  if (!raw || typeof raw !== 'object') return null
  const l = raw as Record<string, unknown>
  const kind: EventLocation['kind'] | undefined = l.$type === URI_TYPE ? 'uri' : PLACE_TYPES[String(l.$type)]
  const name = text(l.name)
  switch (kind) {
    case 'address':
      return typeof l.country === 'string'
        ? defined({ kind, country: l.country, name, street: text(l.street), locality: text(l.locality), region: text(l.region), postalCode: text(l.postalCode) })
        : null
    case 'geo':
      return typeof l.latitude === 'string' && typeof l.longitude === 'string' ? defined({ kind, latitude: l.latitude, longitude: l.longitude, altitude: text(l.altitude), name }) : null
    case 'fsq':
      return typeof l.fsq_place_id === 'string' ? defined({ kind, placeId: l.fsq_place_id, latitude: text(l.latitude), longitude: text(l.longitude), name }) : null
    case 'hthree':
      return typeof l.value === 'string' ? defined({ kind, value: l.value, name }) : null
    case 'uri':
      return typeof l.uri === 'string' ? defined({ kind: 'uri' as const, uri: l.uri, name }) : null
    default:
      return null
  }
}

/** A shown place as the lexicon writes it. */
function locationRecord(l: EventLocation): Record<string, unknown> {
  const { kind, ...rest } = l
  if (kind === 'fsq') {
    const { placeId, ...others } = rest as Extract<EventLocation, { kind: 'fsq' }>
    return defined({ $type: TYPE_OF_KIND.fsq, fsq_place_id: placeId, ...others })
  }
  return defined({ $type: TYPE_OF_KIND[kind], ...rest })
}

/** The event fields Convene shows, read from a record (any app's): unknown values are left out, not guessed at. */
export function eventFromRecord(v: Record<string, unknown>) {
  const locations = Array.isArray(v.locations) ? v.locations.map(locationView).filter((l): l is EventLocation => l !== null) : []
  const uris = Array.isArray(v.uris)
    ? v.uris.flatMap((u: unknown) => {
        const link = u as Record<string, unknown> | null
        return link && typeof link.uri === 'string' ? [defined({ uri: link.uri, name: text(link.name) })] : []
      })
    : []
  return {
    name: typeof v.name === 'string' ? v.name : '',
    startsAt: typeof v.startsAt === 'string' ? v.startsAt : '',
    endsAt: typeof v.endsAt === 'string' ? v.endsAt : null,
    description: typeof v.description === 'string' ? v.description : null,
    // Written by Convene before the published lexicon: still shown, as a place's name.
    location: typeof v.location === 'string' && v.location !== '' ? v.location : null,
    mode: eventMode(v.mode),
    status: eventStatus(v.status),
    locations,
    uris,
    series: seriesLinkOf(v.series),
    createdAt: typeof v.createdAt === 'string' ? v.createdAt : '',
  }
}

/** The series link as the record carries it: typed, so a reader knows whose field it is. */
export const SERIES_TYPE = 'example.groups.defs#eventSeries'

/** The form's fields as the cache holds them until the host's copy is read (nulls for what is not set). */
export const eventFieldsView = (e: EventFields) => ({
  name: e.name,
  startsAt: e.startsAt,
  endsAt: e.endsAt ?? null,
  description: e.description ?? null,
  location: e.location ?? null,
  mode: e.mode ?? null,
  status: e.status ?? null,
  locations: (e.locations ?? []).map((l) => defined({ ...l })),
  uris: (e.uris ?? []).map((u) => defined({ ...u })),
  // Only when given: an edit that leaves it out keeps the occurrence in its series.
  ...(e.series ? { series: e.series } : {}),
})

/** A calendar event record as the group writes it (community.lexicon.calendar.event), tokens whole. */
export function eventRecord(e: EventFields, createdAt: string): Record<string, unknown> {
  return defined({
    $type: EVENT_COLLECTION,
    name: e.name,
    startsAt: e.startsAt,
    endsAt: e.endsAt,
    description: e.description,
    location: e.location,
    mode: e.mode && `${EVENT_TOKEN}${e.mode}`,
    status: e.status && `${EVENT_TOKEN}${e.status}`,
    locations: e.locations?.length ? e.locations.map((l) => locationRecord(defined({ ...l }) as EventLocation)) : undefined,
    uris: e.uris?.length ? e.uris.map((u) => defined({ uri: u.uri, name: u.name })) : undefined,
    // Not a field of the published lexicon: another app reads a plain event and keeps this whole when it writes the event back.
    series: e.series && { $type: SERIES_TYPE, ...e.series },
    createdAt,
  })
}

/** The fields Convene's event form owns: an edit sets or clears these and nothing else. */
const FORM_FIELDS = new Set(['name', 'startsAt', 'endsAt', 'description', 'location', 'mode', 'status', 'locations', 'uris'])

const sameShown = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * An edited event written back over the record as it stands, so another app's data is
 * never dropped by a round trip: fields the form does not show are kept whole (and when
 * it was created); places of kinds the form does not edit (geo, Foursquare, H3, kinds
 * Convene does not know) are kept after the form's; an address or link the form left as
 * it was keeps the record's own object, with whatever else another app put in it; and a
 * link's extra fields likewise.
 */
export function editedEventRecord(current: Record<string, unknown> | undefined, e: EventFields, now: string) {
  const kept = Object.fromEntries(Object.entries(current ?? {}).filter(([k]) => !FORM_FIELDS.has(k)))
  const createdAt = typeof current?.createdAt === 'string' ? current.createdAt : now
  const written = eventRecord(e, createdAt)
  const before = Array.isArray(current?.locations) ? (current.locations as unknown[]) : []
  const untouched = before.filter((l) => !EDITED_KINDS.has(String((l as Record<string, unknown> | null)?.$type)))
  const edited = ((written.locations as Record<string, unknown>[] | undefined) ?? []).map(
    (l) => before.find((old) => EDITED_KINDS.has(String((old as Record<string, unknown> | null)?.$type)) && sameShown(locationView(old), locationView(l))) ?? l,
  )
  const locations = [...edited, ...untouched]
  const beforeUris = Array.isArray(current?.uris) ? (current.uris as Record<string, unknown>[]) : []
  const uris = ((written.uris as Record<string, unknown>[] | undefined) ?? []).map(
    (u) => beforeUris.find((old) => old && old.uri === u.uri && text(old.name) === text(u.name)) ?? u,
  )
  return defined({ ...kept, ...written, locations: locations.length ? locations : undefined, uris: uris.length ? uris : undefined })
}
