import { describe, expect, it } from 'vitest'
import { auditCsv } from '../../src/renderer/src/components/settings/audit-csv'
import type { AuditEntry } from '../../src/shared/ipc/audit-views'

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  seq: 1,
  kind: 'member.roleGranted',
  what: 'gave a role to',
  subject: 'did:plc:bob',
  subjectHandle: 'bob.test',
  actor: 'did:plc:alice',
  actorHandle: 'alice.test',
  asGroup: false,
  createdAt: '2026-11-25T10:00:00.000Z',
  ...over,
})

describe('the audit log as CSV', () => {
  it('writes a header and one line per change, who and whom by handle and DID', () => {
    const lines = auditCsv([entry({}), entry({ seq: 2, kind: 'record.created', what: 'added a record', subject: 'at://g/space/x/self/did:plc:g/c/1', subjectHandle: null, asGroup: true })]).split('\r\n')
    expect(lines[0]).toBe('time,who,who (DID),as the group,what,whom or what,whom (DID or address),kind')
    expect(lines[1]).toBe('2026-11-25T10:00:00.000Z,alice.test,did:plc:alice,,gave a role to,bob.test,did:plc:bob,member.roleGranted')
    expect(lines[2]).toBe('2026-11-25T10:00:00.000Z,alice.test,did:plc:alice,yes,added a record,,at://g/space/x/self/did:plc:g/c/1,record.created')
    expect(lines).toHaveLength(4)
  })

  it('quotes commas and quotes, and defuses what a spreadsheet would run as a formula', () => {
    const text = auditCsv([entry({ what: 'said "hi", then left', subject: '=HYPERLINK("http://evil")', subjectHandle: null })])
    expect(text).toContain('"said ""hi"", then left"')
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`)
  })
})
