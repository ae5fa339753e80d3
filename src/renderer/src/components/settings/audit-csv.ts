import type { AuditEntry } from '../../../../shared/ipc/audit-views'

/** A CSV field: quoted when it holds a comma, quote or line break; a leading = + - @ is defused (spreadsheet formulas). */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** The audit log as a spreadsheet reads it: one change a line, who and whom by handle (bare: a leading @ is a formula to some) and DID. */
export function auditCsv(entries: AuditEntry[]): string {
  const head = ['time', 'who', 'who (DID)', 'as the group', 'what', 'whom or what', 'whom (DID or address)', 'kind']
  const rows = entries.map((e) => [
    e.createdAt,
    e.actorHandle ?? '',
    e.actor ?? '',
    e.asGroup ? 'yes' : '',
    e.what,
    e.subjectHandle ?? '',
    e.subject ?? '',
    e.kind,
  ])
  return [head, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n'
}
