import type { Transaction } from 'kysely'
import { capReached } from '../limits/refusal.js'
import type { HostDatabaseSchema } from '../db/schema.js'

type Tx = Transaction<HostDatabaseSchema>

/** One person's reports about one subject kept while it waits for the moderators. */
export const REPORTS_PER_SUBJECT = 5

/** Subjects one person may have waiting for a group's moderators at once. */
export const WAITING_SUBJECTS_PER_REPORTER = 50

/**
 * Whether a member's report is kept. Each kept report is a row, a history entry and a
 * change-log entry, so what one member can add is bounded by what the moderators do:
 * about a subject still waiting for them, a person's first few reports are kept and
 * more add nothing (they count once anyway; the moderators have their words); and a
 * person may have only so many subjects waiting at once, so made-up accounts and
 * addresses cannot fill the queue (429 past that, until the moderators deal with one).
 * Once a subject is resolved, a fresh report is fresh work and is kept.
 * Run under the group's lock (groupTransaction), so the counts hold.
 */
export async function reportIsKept(tx: Tx, groupDid: string, subjectKey: string, reporter: string): Promise<boolean> {
  const subject = await tx.selectFrom('subject').select('status').where('groupDid', '=', groupDid).where('subjectKey', '=', subjectKey).executeTakeFirst()
  if (subject && subject.status !== 'resolved') {
    const since = await lastResolvedAt(tx, groupDid, subjectKey)
    let mine = tx
      .selectFrom('report')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('groupDid', '=', groupDid)
      .where('subjectKey', '=', subjectKey)
      .where('reportedBy', '=', reporter)
    if (since) mine = mine.where('createdAt', '>', since)
    const n = Number((await mine.executeTakeFirstOrThrow()).n)
    if (n >= REPORTS_PER_SUBJECT) return false
    // Already one of their waiting subjects.
    if (n > 0) return true
  }

  const waiting = await tx
    .selectFrom('report')
    .innerJoin('subject', (j) => j.onRef('subject.groupDid', '=', 'report.groupDid').onRef('subject.subjectKey', '=', 'report.subjectKey'))
    .select((eb) => eb.fn.count<number>('report.subjectKey').distinct().as('n'))
    .where('report.groupDid', '=', groupDid)
    .where('report.reportedBy', '=', reporter)
    .where('report.subjectKey', '!=', subjectKey)
    .where('subject.status', '!=', 'resolved')
    .executeTakeFirstOrThrow()
  if (Number(waiting.n) >= WAITING_SUBJECTS_PER_REPORTER) {
    throw capReached(
      WAITING_SUBJECTS_PER_REPORTER,
      Number(waiting.n),
      `You have ${WAITING_SUBJECTS_PER_REPORTER} reports waiting for this group's moderators, the most this host keeps from one person; you may report more once they have dealt with some`,
    )
  }
  return true
}

/** When the subject was last resolved (by a resolve, a takedown or a status set to resolved), if ever. */
async function lastResolvedAt(tx: Tx, groupDid: string, subjectKey: string): Promise<string | undefined> {
  const events = await tx
    .selectFrom('moderation_event')
    .select(['kind', 'data', 'createdAt'])
    .where('groupDid', '=', groupDid)
    .where('subjectKey', '=', subjectKey)
    .where('kind', 'in', ['resolve', 'takedown', 'status'])
    .orderBy('id', 'desc')
    .execute()
  return events.find((e) => e.kind !== 'status' || (JSON.parse(e.data) as { status?: unknown }).status === 'resolved')?.createdAt
}
