import type { AuditEntry } from '../../../../shared/ipc/audit-views'
import { toCsv } from '../../composables/csv'

/** The audit log as a spreadsheet reads it: one change a line, who and whom by handle (bare: a leading @ is a formula to some) and DID. */
export function auditCsv(entries: AuditEntry[]): string {
  const head = ['time', 'who', 'who (DID)', 'as the group', 'what', 'whom or what', 'whom (DID or address)', 'kind']
  return toCsv(
    head,
    entries.map((e) => [e.createdAt, e.actorHandle ?? '', e.actor ?? '', e.asGroup ? 'yes' : '', e.what, e.subjectHandle ?? '', e.subject ?? '', e.kind]),
  )
}
