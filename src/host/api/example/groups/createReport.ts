import { sql, type Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../../../db/schema.js'
import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, viewerOf } from '../../../groups/access.js'
import { parseSubject, recordModerationEvent } from '../../../moderation/subjects.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { hasReported } from '../../../moderation/reports.js'
import { spaceOfRecord } from '../../../moderation/takedowns.js'
import { groupRecordReader, recordVisibility } from '../../../spaces/record-visibility.js'
import { reportIsKept } from '../../../moderation/report-bounds.js'
import { withCapHeaders } from '../../../limits/cap-headers.js'

/**
 * A member reports an account or a record to the group's moderators, with one of
 * atproto's reason types (other non-blank values are kept as given, as older clients
 * send `spam`) and free text. The first report opens a subject; later ones reopen it if
 * it had been resolved, since a fresh report is fresh work. Reports are kept (the
 * reporter too, shown to moderators only), but the count is of people: one person's
 * repeated reports of one subject count once. What one person can add is bounded
 * (moderation/report-bounds.ts): five reports about a subject while it waits for the
 * moderators (more answer {} and add nothing), fifty subjects waiting at once (then 429,
 * naming no time: it lifts when the moderators deal with one).
 * A report sent again with the same `idempotencyKey` by the same reporter (a client
 * retrying after it lost the answer) is the report already made: nothing is kept twice.
 *
 * A record in one of the group's spaces is reported only by someone whose roles may read
 * that space (`Forbidden` otherwise, a space the group does not have included): a
 * reporter cannot have seen anything else there, and a report is what puts a record in
 * front of the moderators.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.createReport({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input, res }) => {
      const { reasonType, reason, idempotencyKey } = input.body
      const caller = auth.credentials.did
      const { key, subject } = parseSubject(input.body.subject)
      if (!reasonType.trim()) throw refuse('InvalidRequest', 'Say what kind of problem this is (reasonType)')
      const group = await loadGroup(ctx, input.body.group)
      const now = new Date().toISOString()

      await withCapHeaders(res, () => groupTransaction(ctx.db, group.did, async (tx) => {
        const viewer = await viewerOf(tx, group.did, caller)
        if (!viewer.isMember) throw refuse('Forbidden', 'Only members of this group may report to its moderators')
        if (spaceOfRecord(group.did, key) && recordVisibility(await groupRecordReader(tx, group.did, viewer), key, false) === 'unreadable') {
          throw refuse('Forbidden', 'That record is in a space your roles in this group may not read (or one the group does not have): you can report only what you can see')
        }
        if (idempotencyKey && (await alreadyReported(tx, group.did, key, caller, idempotencyKey))) return
        if (!(await reportIsKept(tx, group.did, key, caller))) return
        const again = await hasReported(tx, group.did, key, caller)
        await tx
          .insertInto('subject')
          .values({ groupDid: group.did, subjectKey: key, subject: JSON.stringify(subject), status: 'open', reportCount: 1, createdAt: now, updatedAt: now, lastReportedAt: now })
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
          .values({ groupDid: group.did, subjectKey: key, reasonType, reason: reason ?? null, reportedBy: caller, createdAt: now } as never)
          .execute()
        await recordModerationEvent(tx, { groupDid: group.did, subjectKey: key, kind: 'report', data: { reasonType, ...(reason ? { reason } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) }, createdBy: caller })
        await recordChange(tx, group.did, 'subject.reported', key)
      }))
      return { encoding: 'application/json', body: {} }
    },
  })
}
/**
 * Whether this reporter already made the report this key names. Read in the report's
 * transaction from the caller's own reports on this subject (a handful), compared here
 * rather than in SQL so every database the host runs on answers alike.
 */
async function alreadyReported(tx: Transaction<HostDatabaseSchema>, groupDid: string, subjectKey: string, reporter: string, key: string): Promise<boolean> {
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

export default register
