import type { Kysely } from 'kysely'
import { cborDecode } from '@atproto/lex-cbor'
import { InvalidRequestError } from '@atproto/xrpc-server'
import type { HostDatabaseSchema } from '../db/schema.js'

type Db = Kysely<HostDatabaseSchema>

/** How often a caught-up stream looks for new commits: the log is shared by every host process. */
const POLL_MS = 250
/** Rows read per query while catching up. */
const PAGE = 200

export type RepoStreamMessage = { $type: 'com.atproto.sync.subscribeRepos#commit'; seq: number } & Record<string, unknown>

/**
 * The firehose (com.atproto.sync.subscribeRepos): every group's commits in the order they
 * were made, as `#commit` messages. With a cursor it first sends what came after it
 * (a cursor past the newest commit is `FutureCursor`); without one it starts at the next
 * commit. It reads the commits log (repo_event) rather than an in-process feed, so it
 * sees commits made by any host process on a shared PostgreSQL.
 */
export async function* repoStream(db: Db, cursor: number | undefined, signal: AbortSignal): AsyncGenerator<RepoStreamMessage> {
  const newest = await latestSeq(db)
  if (cursor !== undefined && cursor > newest) throw new InvalidRequestError('That cursor is ahead of this host’s newest commit', 'FutureCursor')
  let after = cursor ?? newest
  while (!signal.aborted) {
    const rows = await db.selectFrom('repo_event').select(['seq', 'frame']).where('seq', '>', after).orderBy('seq').limit(PAGE).execute()
    for (const row of rows) {
      if (signal.aborted) return
      after = row.seq
      const body = cborDecode(new Uint8Array(row.frame)) as Record<string, unknown>
      yield { $type: 'com.atproto.sync.subscribeRepos#commit', seq: row.seq, ...body }
    }
    if (rows.length < PAGE) await sleep(POLL_MS, signal)
  }
}

async function latestSeq(db: Db): Promise<number> {
  const row = await db.selectFrom('repo_event').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst()
  return Number(row?.seq ?? 0)
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
