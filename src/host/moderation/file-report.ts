import { sql, type Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import type { Viewer } from '../groups/access.js'
import { groupRecordReader, recordVisibility } from '../spaces/record-visibility.js'
import { hasReported } from './reports.js'
import { reportIsKept } from './report-bounds.js'
import { recordModerationEvent, type SubjectRef } from './subjects.js'
import { spaceOfRecord } from './takedowns.js'

type Tx = Transaction<HostDatabaseSchema>

/**
 * A member's report (`createReport`), in a transaction holding the group's lock. The
 * first report opens a subject; later ones reopen it if it had been resolved, since a
 * fresh report is fresh work. The count is of people: one person's repeated reports of
 * one subject count once. A record in one of the group's spaces is reported only by
 * someone whose roles may read that space (`Forbidden`): a reporter cannot have seen
 * anything else there. A report past what one person may add (report-bounds.ts), or one
 * sent again with the same `idempotencyKey`, adds nothing.
 */
export async function fileReport(
  tx: Tx,
  groupDid: string,
  viewer: Viewer,
  report: { key: string; subject: SubjectRef; reasonType: string; reason?: string; idempotencyKey?: string },
): Promise<void> {
  const { key, subject, reasonType, reason, idempotencyKey } = report
  const caller = viewer.did
  if (!viewer.isMember) throw refuse('Forbidden', 'Only members of this group may report to its moderators')
  if (spaceOfRecord(groupDid, key) && recordVisibility(await groupRecordReader(tx, groupDid, viewer), key, false) === 'unreadable') {
    throw refuse('Forbidden', 'That record is in a space your roles in this group may not read (or one the group does not have): you can report only what you can see')
  }
  if (idempotencyKey && (await alreadyReported(tx, groupDid, key, caller, idempotencyKey))) return
  if (!(await reportIsKept(tx, groupDid, key, caller))) return
  const again = await hasReported(tx, groupDid, key, caller)
  const now = new Date().toISOString()
  await tx
    .insertInto('subject')
    .values({ groupDid, subjectKey: key, subject: JSON.stringify(subject), status: 'open', reportCount: 1, createdAt: now, updatedAt: now, lastReportedAt: now })
    .onConflict((oc) =>
      oc.columns(['groupDid', 'subjectKey']).doUpdateSet({
        // Reopens a resolved subject; an escalated one stays escalated.
        status: sql`case when ${sql.ref('subject.status')} = 'resolved' then 'open' else ${sql.ref('subject.status')} end`,
        reportCount: again ? sql`${sql.ref('subject.reportCount')}` : sql`${sql.ref('subject.reportCount')} + 1`,
        updatedAt: now,
        lastReportedAt: now,
      }),
    )
    .execute()
  await tx
    .insertInto('report')
    .values({ groupDid, subjectKey: key, reasonType, reason: reason ?? null, reportedBy: caller, createdAt: now } as never)
    .execute()
  await recordModerationEvent(tx, { groupDid, subjectKey: key, kind: 'report', data: { reasonType, ...(reason ? { reason } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) }, createdBy: caller })
  await recordChange(tx, groupDid, 'subject.reported', key)
}

/**
 * Whether this reporter already made the report this key names. Read in the report's
 * transaction from the caller's own reports on this subject (a handful), compared here
 * rather than in SQL so every database the host runs on answers alike.
 */
async function alreadyReported(tx: Tx, groupDid: string, subjectKey: string, reporter: string, key: string): Promise<boolean> {
  const rows = await tx
    .selectFrom('moderation_event')
    .select('data')
    .where('groupDid', '=', groupDid)
    .where('subjectKey', '=', subjectKey)
    .where('kind', '=', 'report')
    .where('createdBy', '=', reporter)
    .execute()
  return rows.some((r) => (JSON.parse(r.data) as { idempotencyKey?: unknown }).idempotencyKey === key)
}
