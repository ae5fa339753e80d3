import { describe, expect, it } from 'vitest'
import { hasPlaces, tallyEvent, tallyName } from '../../src/renderer/src/composables/event-tally.js'

const ME = 'did:plc:me'
const row = (did: string, status: 'going' | 'interested' | 'notgoing', standing: 'going' | 'waitlisted' | null = null, waitlistPosition: number | null = null) => ({
  did,
  handle: did.slice(8) + '.test',
  status,
  standing,
  waitlistPosition,
})

describe('one reading of an event’s answers (issue 36 point 3)', () => {
  it('capacity 2, three going: two going and one waitlisted, never three going', () => {
    const t = tallyEvent({ capacity: 2, myRsvp: null, rsvps: [row('did:plc:mina', 'going', 'going'), row('did:plc:oona', 'going', 'going'), row('did:plc:otto', 'going', 'waitlisted', 1)] }, ME)
    expect(t.going.map(tallyName)).toEqual(['@mina.test', '@oona.test'])
    expect(t.waitlisted.map(tallyName)).toEqual(['@otto.test (1st)'])
    expect(hasPlaces(t)).toBe(true)
  })

  it('the viewer counts once, by the answer they last gave, in the place the host gave it', () => {
    const waiting = tallyEvent({ capacity: 1, myRsvp: 'going', rsvps: [row('did:plc:mina', 'going', 'going'), { ...row(ME, 'going', 'waitlisted', 1), handle: 'me.test' }] }, ME)
    expect(waiting.going.map(tallyName)).toEqual(['@mina.test'])
    expect(waiting.waitlisted.map(tallyName)).toEqual(['you (1st)'])
    // Changed their mind a moment ago: the host still lists them going, but they count as not going.
    const changed = tallyEvent({ capacity: null, myRsvp: 'notgoing', rsvps: [row(ME, 'going', 'going')] }, ME)
    expect([changed.going.length, changed.notgoing.map(tallyName)]).toEqual([0, ['you']])
    expect(hasPlaces(changed)).toBe(false)
  })
})
