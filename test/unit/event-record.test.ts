import { describe, expect, it } from 'vitest'
import { editedEventRecord, eventFromRecord, eventRecord } from '../../src/main/core/calendar/event-record.js'
import { mergeAnswers } from '../../src/main/core/calendar/rsvp-records.js'
import { placeInWords } from '../../src/shared/event-places.js'
import { lexicons } from '../../src/node/lexicon/lexicons.js'

const E = 'community.lexicon.calendar.event'
const AT = '2026-06-01T10:00:00.000Z'

/** As another calendar app writes it: every kind of place, links, tokens whole, and fields Convene has no use for. */
const theirs = {
  $type: E,
  name: 'Meetup',
  startsAt: AT,
  createdAt: AT,
  mode: `${E}#hybrid`,
  status: `${E}#scheduled`,
  rsvpExpected: true,
  locations: [
    { $type: 'community.lexicon.location.address', country: 'DE', locality: 'Berlin', street: 'Hauptstr. 1', name: 'Hall' },
    { $type: `${E}#uri`, uri: 'https://stream.example/live', name: 'Stream' },
    { $type: 'community.lexicon.location.geo', latitude: '52.52', longitude: '13.40' },
    { $type: 'community.lexicon.location.fsq', fsq_place_id: '4b0588', name: 'Café' },
    { $type: 'community.lexicon.location.hthree', value: '8a1fb46622dffff' },
    { $type: 'org.example.place', somewhere: 'over the rainbow' },
  ],
  uris: [{ uri: 'https://tickets.example/1', name: 'Tickets', 'org.example.price': 5 }],
  'org.example.capacity': 40,
}

describe('the published calendar event, read and written', () => {
  it('reads every kind of place, the mode and status from another app’s record', () => {
    const e = eventFromRecord(theirs)
    expect(e).toMatchObject({ name: 'Meetup', mode: 'hybrid', status: 'scheduled', uris: [{ uri: 'https://tickets.example/1', name: 'Tickets' }] })
    expect(e.locations.map(placeInWords)).toEqual([
      'Hall, Hauptstr. 1, Berlin, DE',
      'Stream: https://stream.example/live',
      'at 52.52, 13.40',
      'Café (Foursquare place 4b0588)',
      'H3 area 8a1fb46622dffff',
    ])
  })

  it('reads an event Convene wrote before, with its free-text location', () => {
    expect(eventFromRecord({ $type: E, name: 'Old', startsAt: AT, createdAt: AT, location: 'The park' })).toMatchObject({ location: 'The park', locations: [], mode: null, status: null })
  })

  it('writes tokens whole and valid for the lexicon', () => {
    const record = eventRecord({ name: 'Walk', startsAt: AT, mode: 'inperson', status: 'postponed', locations: [{ kind: 'address', country: 'NL' }, { kind: 'uri', uri: 'https://x.example/' }], uris: [{ uri: 'https://t.example/' }] }, AT)
    expect(record).toMatchObject({ mode: `${E}#inperson`, status: `${E}#postponed`, locations: [{ $type: 'community.lexicon.location.address', country: 'NL' }, { $type: `${E}#uri`, uri: 'https://x.example/' }] })
    expect(() => lexicons.assertValidRecord(E, record)).not.toThrow()
  })

  it('an edit keeps every field and place Convene does not show, and what another app put in an unchanged link', () => {
    const edited = editedEventRecord(
      theirs,
      {
        name: 'Meetup (cancelled)',
        startsAt: AT,
        mode: 'hybrid',
        status: 'cancelled',
        locations: [{ kind: 'address', country: 'DE', locality: 'Berlin', street: 'Hauptstr. 1', name: 'Hall' }, { kind: 'uri', uri: 'https://stream.example/live', name: 'Stream' }],
        uris: [{ uri: 'https://tickets.example/1', name: 'Tickets' }],
      },
      '2026-07-01T00:00:00.000Z',
    )
    expect(edited).toEqual({ ...theirs, name: 'Meetup (cancelled)', status: `${E}#cancelled` })
    expect(() => lexicons.assertValidRecord(E, edited)).not.toThrow()
  })
})

describe('RSVPs from both collections', () => {
  const did = 'did:plc:member'
  const rsvp = (collection: string, rkey: string, value: Record<string, unknown>) => ({ uri: `at://g/space/community.lexicon.calendar/self/${did}/${collection}/${rkey}`, repo: did, value })
  it('reads full tokens and bare ones, and the published collection wins for the same event', () => {
    const legacy = [rsvp('example.groups.rsvp', 'ev1', { status: 'going' }), rsvp('example.groups.rsvp', 'ev2', { status: 'interested' })]
    const current = [rsvp('community.lexicon.calendar.rsvp', 'ev1', { subject: { uri: `at://g/${E}/ev1`, cid: 'x' }, status: 'community.lexicon.calendar.rsvp#notgoing' })]
    const answers = [...mergeAnswers(legacy, current, (r) => r.repo).values()].map(({ event, status }) => [event, status])
    expect(answers.sort()).toEqual([['ev1', 'notgoing'], ['ev2', 'interested']])
  })
  it('finds the event by the subject when another app gave the RSVP a key of its own', () => {
    const current = [rsvp('community.lexicon.calendar.rsvp', '3kother', { subject: { uri: `at://g/${E}/ev9`, cid: 'x' }, status: 'community.lexicon.calendar.rsvp#going' })]
    expect([...mergeAnswers([], current, (r) => r.repo).values()].map((a) => a.event)).toEqual(['ev9'])
  })
})
