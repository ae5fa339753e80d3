import { describe, expect, it } from 'vitest'
import { goingEvents, ordinal, placesWords, rsvpEvent, saysGoing, standingWords } from '../../src/shared/rsvp-standing.js'

describe('places at an event, in words and in records', () => {
  it('says ordinals as people do', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th', '112th'])
  })

  it('says a member’s own place', () => {
    expect(standingWords({ standing: 'going' })).toBe('You’re going')
    expect(standingWords({ standing: 'waitlisted', position: 3 })).toBe('You’re 3rd on the waitlist')
    expect(standingWords({ standing: 'waitlisted' })).toBe('You’re on the waitlist')
  })

  it('says an event’s places at a glance', () => {
    expect(placesWords({ going: 12, waitlisted: 3, capacity: 12 })).toBe('12 going · 3 waitlisted · capacity 12')
    expect(placesWords({ going: 1, waitlisted: 0, capacity: 5 })).toBe('1 going · 0 waitlisted · capacity 5')
    expect(placesWords({ going: 4, waitlisted: 0 })).toBe('4 going')
  })

  it('reads going from either collection, the published one winning for the same event', () => {
    expect(saysGoing({ status: 'community.lexicon.calendar.rsvp#going' })).toBe(true)
    expect(saysGoing({ status: 'going' })).toBe(true)
    expect(saysGoing({ status: 'community.lexicon.calendar.rsvp#interested' })).toBe(false)
    expect(rsvpEvent('3kfresh', { subject: { uri: 'at://did:plc:g/community.lexicon.calendar.event/3kevent' } })).toBe('3kevent')
    expect(rsvpEvent('3kevent', { subject: 'at://did:plc:g/app.other/x' })).toBe('3kevent')
    const going = goingEvents([
      { collection: 'community.lexicon.calendar.rsvp', rkey: 'a', value: { status: 'community.lexicon.calendar.rsvp#notgoing' } },
      { collection: 'example.groups.rsvp', rkey: 'a', value: { status: 'going' } },
      { collection: 'example.groups.rsvp', rkey: 'b', value: { status: 'going' } },
      { collection: 'example.other', rkey: 'c', value: { status: 'going' } },
    ])
    expect([...going]).toEqual(['b'])
  })
})
