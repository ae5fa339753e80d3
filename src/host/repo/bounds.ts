import { sql, type Kysely, type Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'

type Db = Kysely<HostDatabaseSchema> | Transaction<HostDatabaseSchema>

/**
 * What one group's public repo keeps (issue 35 #3: any account owns groups of its own, so
 * the role holders who write there are no bound by themselves). Records: a post a day for
 * decades, each at most 100 kB (records.ts). Firehose frames: the newest of the group's
 * commits, within the log's lifetime (change-log-retention.ts); a consumer that replays
 * from further back than a group's oldest kept frame finds that group's chain broken and
 * reads its repo whole with getRepo, as a relay does with a PDS's.
 */
export const MAX_REPO_RECORDS_PER_GROUP = 10_000
export const MAX_REPO_RECORD_BYTES_PER_GROUP = 25_000_000
export const MAX_REPO_FRAMES_PER_GROUP = 5_000
export const MAX_REPO_FRAME_BYTES_PER_GROUP = 50_000_000
/** Trimming takes the frames down to this share of their bounds, so it runs now and then, not with every commit. */
const TRIM_TO = 0.9
const TRIM_BATCH = 200

/** The repo's totals as repo_root keeps them (migration 036). */
export interface RepoTotals {
  recordCount: number
  recordBytes: number
  frameCount: number
  frameBytes: number
}

export async function repoTotals(db: Db, groupDid: string): Promise<RepoTotals> {
  const row = await db.selectFrom('repo_root').select(['recordCount', 'recordBytes', 'frameCount', 'frameBytes']).where('groupDid', '=', groupDid).executeTakeFirst()
  return { recordCount: Number(row?.recordCount ?? 0), recordBytes: Number(row?.recordBytes ?? 0), frameCount: Number(row?.frameCount ?? 0), frameBytes: Number(row?.frameBytes ?? 0) }
}

/** Refuses (`InvalidRequest`) a commit that would take the repo past its record bounds; deletes always pass. */
export function checkRecordBounds(totals: RepoTotals, records: number, bytes: number): void {
  if (records > 0 && totals.recordCount + records > MAX_REPO_RECORDS_PER_GROUP) {
    throw refuse('InvalidRequest', `The host keeps at most ${MAX_REPO_RECORDS_PER_GROUP.toLocaleString('en')} records in a group's public repo, and this one has ${totals.recordCount.toLocaleString('en')}: delete some first`)
  }
  if (bytes > 0 && totals.recordBytes + bytes > MAX_REPO_RECORD_BYTES_PER_GROUP) {
    throw refuse('InvalidRequest', `The host keeps at most ${MAX_REPO_RECORD_BYTES_PER_GROUP.toLocaleString('en')} bytes of records in a group's public repo, and this write would take it to ${(totals.recordBytes + bytes).toLocaleString('en')}: delete some first`)
  }
}

/** What a commit adds: records and their bytes (negative for deletes), and its frame's bytes. */
export interface CommitTotals {
  records: number
  recordBytes: number
  frameBytes: number
}

/**
 * Adds a commit to the repo's totals, trimming the group's oldest firehose frames when
 * they pass their bounds. Under the group's lock (the commit's transaction); the update is
 * relative, so a prune of the log's lifetime by another process at the same moment is not
 * lost (records change only under the lock; frames also by prunes).
 */
export async function addCommit(tx: Transaction<HostDatabaseSchema>, groupDid: string, before: RepoTotals, commit: CommitTotals): Promise<void> {
  let frames = 1
  let frameBytes = commit.frameBytes
  const over = () => before.frameCount + frames > MAX_REPO_FRAMES_PER_GROUP * TRIM_TO || before.frameBytes + frameBytes > MAX_REPO_FRAME_BYTES_PER_GROUP * TRIM_TO
  if (before.frameCount + frames > MAX_REPO_FRAMES_PER_GROUP || before.frameBytes + frameBytes > MAX_REPO_FRAME_BYTES_PER_GROUP) {
    while (over()) {
      const oldest = await tx.selectFrom('repo_event').select('seq').where('groupDid', '=', groupDid).orderBy('seq').limit(TRIM_BATCH).execute()
      // Never the frame just written (it is the newest, and a bound is far above one frame).
      if (oldest.length <= 1) break
      const last = oldest[oldest.length - 2]!.seq
      const gone = await tx.deleteFrom('repo_event').where('groupDid', '=', groupDid).where('seq', '<=', last).returning(sql<number>`length(frame)`.as('bytes')).execute()
      frames -= gone.length
      frameBytes -= gone.reduce((sum, f) => sum + Number(f.bytes), 0)
    }
  }
  await tx
    .updateTable('repo_root')
    .set((eb) => ({
      recordCount: eb('recordCount', '+', commit.records),
      recordBytes: eb('recordBytes', '+', commit.recordBytes),
      frameCount: eb('frameCount', '+', frames),
      frameBytes: eb('frameBytes', '+', frameBytes),
    }))
    .where('groupDid', '=', groupDid)
    .execute()
}

/**
 * Takes frames the log's lifetime pruned (change-log-retention.ts) off their groups'
 * totals: what this process deleted, as each deletion returned it, so two processes
 * pruning at once on PostgreSQL never count a frame twice.
 */
export async function subtractPrunedFrames(db: Db, deleted: { groupDid: string; bytes: number | string }[]): Promise<void> {
  const byGroup = new Map<string, { count: number; bytes: number }>()
  for (const f of deleted) {
    const t = byGroup.get(f.groupDid) ?? { count: 0, bytes: 0 }
    t.count++
    t.bytes += Number(f.bytes)
    byGroup.set(f.groupDid, t)
  }
  for (const [groupDid, t] of byGroup) {
    await db
      .updateTable('repo_root')
      .set((eb) => ({ frameCount: eb('frameCount', '-', t.count), frameBytes: eb('frameBytes', '-', t.bytes) }))
      .where('groupDid', '=', groupDid)
      .execute()
  }
}
