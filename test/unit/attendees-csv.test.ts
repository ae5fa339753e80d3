import { describe, expect, it } from 'vitest'
import { ATTENDEES_HEAD, attendeesCsv } from '../../src/renderer/src/components/calendar/attendees-csv'

const rsvp = (did: string, handle: string | null, status: 'going' | 'interested' | 'notgoing', standing: 'going' | 'waitlisted' | null = null, waitlistPosition: number | null = null) => ({ did, handle, status, standing, waitlistPosition })
const person = (did: string, handle: string, displayName: string | null) => ({ did, handle, displayName, avatar: null, going: false, waitlisted: false, waitlistPosition: null, code: null, member: true })
const checkIn = (did: string, over: Record<string, unknown> = {}) => ({
  did,
  handle: null,
  displayName: null,
  avatar: null,
  checkedInAt: '2026-11-20T18:04:00.000Z',
  device: 'Door A',
  here: true,
  walkIn: false,
  pending: false,
  outboxId: null,
  ...over,
})
const lines = (text: string) => text.trim().split('\r\n')

describe('an event’s attendees as CSV', () => {
  it('says each answer with its place and check-in: going first, then the waitlist in order, then other answers, then walk-ins', () => {
    const event = {
      rsvps: [
        rsvp('did:plc:carol', 'carol.test', 'going', 'waitlisted', 2),
        rsvp('did:plc:dan', 'dan.test', 'notgoing'),
        rsvp('did:plc:bob', 'bob.test', 'going', 'waitlisted', 1),
        rsvp('did:plc:alice', 'alice.test', 'going', 'going'),
      ],
    }
    const door = {
      people: [person('did:plc:alice', 'alice.test', 'Alice Liddell'), person('did:plc:bob', 'bob.test', null)],
      checkIns: [checkIn('did:plc:alice'), checkIn('did:plc:erin', { handle: 'erin.test', walkIn: true, pending: true, device: 'Door B' })],
    }
    const out = lines(attendeesCsv(event, door))
    expect(out[0]).toBe(ATTENDEES_HEAD.join(','))
    expect(out.slice(1)).toEqual([
      'Alice Liddell,alice.test,did:plc:alice,Going,going,,yes,2026-11-20T18:04:00.000Z,Door A,',
      ',bob.test,did:plc:bob,Going,waitlist,1,no,,,',
      ',carol.test,did:plc:carol,Going,waitlist,2,no,,,',
      ',dan.test,did:plc:dan,Not going,,,no,,,',
      ',erin.test,did:plc:erin,,,,yes (not yet sent),2026-11-20T18:04:00.000Z,Door B,yes',
    ])
  })

  it('defuses a display name a spreadsheet would run as a formula', () => {
    const out = lines(attendeesCsv({ rsvps: [rsvp('did:plc:mal', 'mal.test', 'going', 'going')] }, { people: [person('did:plc:mal', 'mal.test', '=HYPERLINK("x")')], checkIns: [] }))
    expect(out[1]).toMatch(/^"'=HYPERLINK\(""x""\)",mal\.test,/)
  })

  it('an event nobody answered is the header alone', () => {
    expect(lines(attendeesCsv({ rsvps: [] }, { people: [], checkIns: [] }))).toEqual([ATTENDEES_HEAD.join(',')])
  })
})
