import { describe, expect, it } from 'vitest'
import { recordLine, subjectKind } from '../../src/renderer/src/components/moderation/subject-line.js'

const POST = 'at://did:plc:group/space/example.posts/self/did:plc:group/app.bsky.feed.post/3k'
const EVENT = 'at://did:plc:group/space/community.lexicon.calendar/self/did:plc:group/community.lexicon.calendar.event/3k'
const none = { record: null, recordPreview: null }

describe('a reported record in one line, as what it is', () => {
  it('a post by its words, in quotes', () => {
    const s = { ...none, subject: { uri: POST }, recordPreview: { text: 'Cheap watches' } }
    expect(recordLine(s)).toBe('“Cheap watches”')
    expect(subjectKind(s)).toBe('Post')
  })

  it('a deleted record plainly so', () => {
    const s = { ...none, subject: { uri: POST }, recordPreview: { gone: true } }
    expect(recordLine(s)).toBe('Deleted record')
    expect(subjectKind(s)).toBe('Record')
  })

  it('an event by its name, before anything the host said of its text', () => {
    const s = { subject: { uri: EVENT }, record: { kind: 'event' as const, name: 'Swap meet', startsAt: null }, recordPreview: { text: 'ignored' } }
    expect(recordLine(s)).toBe('Swap meet')
    expect(subjectKind(s)).toBe('Event')
  })

  it('one the app knows nothing of is opened to be seen, never shown by its address', () => {
    const line = recordLine({ ...none, subject: { uri: POST } })
    expect(line).toBe('A post or record: open it to see it')
    expect(line).not.toContain('at://')
    expect(subjectKind({ ...none, subject: { did: 'did:plc:x' } })).toBe('Account')
  })
})
