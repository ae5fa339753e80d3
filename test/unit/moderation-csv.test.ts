import { describe, expect, it } from 'vitest'
import { MODERATION_CSV_HEAD, moderationHistoryCsv } from '../../src/renderer/src/components/moderation/moderation-csv'

const MOD = 'did:plc:mod'
const item = (over: Record<string, unknown>) => ({
  key: 'did:plc:bob',
  subject: { did: 'did:plc:bob' },
  handle: 'bob.test',
  displayName: 'Bob',
  avatar: null,
  record: null,
  status: 'resolved',
  reportCount: 1,
  pending: false,
  ...over,
})
const act = (over: Record<string, unknown>) => ({
  event: 'comment',
  note: null,
  status: null,
  reasonType: null,
  reason: null,
  ban: false,
  createdBy: MOD,
  createdByHandle: 'mod.test',
  createdByName: 'Mo',
  createdAt: '2026-03-01T10:00:00.000Z',
  assignedTo: null,
  assignedToHandle: null,
  assignedToName: null,
  endAt: null,
  ...over,
})
const detail = (history: Record<string, unknown>[], status = 'resolved') => ({ status, history })

describe('the moderation history as CSV', () => {
  it('has one act a line, oldest first, with the subject in words, who acted by handle (DID beside), what and the note', () => {
    const text = moderationHistoryCsv([
      {
        item: item({}),
        detail: detail([
          act({ event: 'resolve', status: 'resolved', note: 'Spoke to them, sorted', createdAt: '2026-03-02T09:00:00.000Z' }),
          act({ event: 'comment', note: 'Looking, one moment' }),
        ]),
      },
    ] as never)
    const lines = text.trimEnd().split('\r\n')
    expect(lines[0]).toBe(MODERATION_CSV_HEAD.join(','))
    expect(lines[1]).toBe('Bob,bob.test,did:plc:bob,Resolved,2026-03-01T10:00:00.000Z,Comment,,,"Looking, one moment",mod.test,Mo,did:plc:mod')
    expect(lines[2]).toBe('Bob,bob.test,did:plc:bob,Resolved,2026-03-02T09:00:00.000Z,Resolved,Resolved,,"Spoke to them, sorted",mod.test,Mo,did:plc:mod')
    expect(lines).toHaveLength(3)
  })

  it('names a record by what it is, keeps a subject with no act yet, and never leaves who acted as a DID alone', () => {
    const uri = 'at://did:plc:g/space/community.lexicon.calendar/self/did:plc:g/community.lexicon.calendar.event/3lbx'
    const text = moderationHistoryCsv([
      { item: item({ key: uri, subject: { uri }, handle: null, displayName: null, record: { kind: 'event', name: 'Picnic', startsAt: null }, status: 'open' }), detail: detail([], 'open') },
      { item: item({}), detail: detail([act({ createdByHandle: null, createdByName: null, event: 'takedown', reasonType: 'com.atproto.moderation.defs#reasonSpam' })]) },
    ] as never)
    const lines = text.trimEnd().split('\r\n')
    expect(lines[1]).toBe(`the event “Picnic”,,${uri},Open,,,,,,,,`)
    expect(lines[2]).toContain(',Taken down,,')
    expect(lines[2]).toContain(',(handle not known),,did:plc:mod')
  })

  it('defuses a note a spreadsheet would run as a formula', () => {
    const text = moderationHistoryCsv([{ item: item({}), detail: detail([act({ note: '=HYPERLINK("http://evil")' })]) }] as never)
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`)
  })
})
