import type { Kysely } from 'kysely'
import { InvalidRequestError } from '@atproto/xrpc-server'
import { cborToLexRecord, concatBytesAsync, getRecords, writeCarStream, type CarBlock, type RecordPath } from '@atproto/repo'
import type { HostDatabaseSchema } from '../db/schema.js'
import { GroupRepoStorage, parseCid } from './storage.js'
import { requireRepoServed } from './takedown.js'

type Db = Kysely<HostDatabaseSchema>

/** A repo this host does not keep (no such group, or one that has written nothing yet). */
export const repoNotFound = (did: string) => new InvalidRequestError(`This host keeps no repo for ${did}`, 'RepoNotFound')

/** The storage of a group's repo and its current commit, or RepoNotFound. */
export async function openRepo(db: Db, did: string): Promise<{ storage: GroupRepoStorage; root: { cid: ReturnType<typeof parseCid>; rev: string } }> {
  await requireRepoServed(db, did)
  const storage = new GroupRepoStorage(db, did)
  const root = await storage.getRootDetailed()
  if (!root) throw repoNotFound(did)
  return { storage, root }
}

/** Blocks read per query while a CAR file is written. */
const CAR_PAGE = 500

/**
 * The repo as a CAR file rooted at the current commit (sync.getRepo), written as it is
 * read, a page of blocks at a time, as the PDS streams it: never the whole repo in memory.
 * With `since` (a rev), only the blocks written by later commits, as the PDS answers it.
 */
export async function repoCarStream(db: Db, did: string, since?: string): Promise<AsyncIterable<Uint8Array>> {
  const { root } = await openRepo(db, did)
  return writeCarStream(root.cid, repoBlocks(db, did, since))
}

async function* repoBlocks(db: Db, did: string, since: string | undefined): AsyncGenerator<CarBlock> {
  let after = ''
  for (;;) {
    let page = db.selectFrom('repo_block').select(['cid', 'content']).where('groupDid', '=', did).where('cid', '>', after)
    if (since !== undefined) page = page.where('rev', '>', since)
    const rows = await page.orderBy('cid').limit(CAR_PAGE).execute()
    for (const row of rows) yield { cid: parseCid(row.cid), bytes: new Uint8Array(row.content) }
    if (rows.length < CAR_PAGE) return
    after = rows.at(-1)!.cid
  }
}

/** One record with the MST path proving it (or its absence) from the signed commit (sync.getRecord). */
export async function recordProofCar(db: Db, did: string, path: RecordPath): Promise<Uint8Array> {
  const { storage, root } = await openRepo(db, did)
  return concatBytesAsync(getRecords(storage, root.cid, [path]))
}

/** The collections that hold records, by name (describeRepo). */
export async function repoCollections(db: Db, did: string): Promise<string[]> {
  const rows = await db.selectFrom('repo_record').select('collection').distinct().where('groupDid', '=', did).orderBy('collection').execute()
  return rows.map((r) => r.collection)
}

/** A record's CID and value, or null (repo.getRecord). */
export async function readRecord(db: Db, did: string, collection: string, rkey: string): Promise<{ cid: string; value: Record<string, unknown> } | null> {
  const row = await db
    .selectFrom('repo_record')
    .select('cid')
    .where('groupDid', '=', did)
    .where('collection', '=', collection)
    .where('rkey', '=', rkey)
    .executeTakeFirst()
  if (!row) return null
  const bytes = await new GroupRepoStorage(db, did).getBytes(parseCid(row.cid))
  if (!bytes) return null
  return { cid: row.cid, value: cborToLexRecord(bytes) as Record<string, unknown> }
}

/**
 * A page of a collection's records by rkey, newest (highest TID) first unless `reverse`,
 * as a PDS lists them; the cursor is the last rkey served.
 */
export async function listRepoRecords(
  db: Db,
  did: string,
  opts: { collection: string; limit: number; cursor?: string; reverse?: boolean },
): Promise<{ records: { uri: string; cid: string; value: Record<string, unknown> }[]; cursor?: string }> {
  let q = db.selectFrom('repo_record').select(['rkey', 'cid']).where('groupDid', '=', did).where('collection', '=', opts.collection)
  if (opts.cursor) q = q.where('rkey', opts.reverse ? '>' : '<', opts.cursor)
  const rows = await q.orderBy('rkey', opts.reverse ? 'asc' : 'desc').limit(opts.limit).execute()
  const storage = new GroupRepoStorage(db, did)
  const { blocks } = await storage.getBlocks(rows.map((r) => parseCid(r.cid)))
  const records = rows.flatMap((r) => {
    const bytes = blocks.get(parseCid(r.cid))
    return bytes ? [{ uri: `at://${did}/${opts.collection}/${r.rkey}`, cid: r.cid, value: cborToLexRecord(bytes) as Record<string, unknown> }] : []
  })
  const last = rows.at(-1)
  return { records, ...(rows.length === opts.limit && last ? { cursor: last.rkey } : {}) }
}

/** The host's repos in the order of their groups' DIDs, a page at a time (sync.listRepos). */
export async function listRepos(
  db: Db,
  opts: { limit: number; cursor?: string },
): Promise<{ repos: { did: string; head: string; rev: string; active: boolean; status?: 'takendown' }[]; cursor?: string }> {
  let q = db
    .selectFrom('repo_root')
    .leftJoin('repo_takedown', 'repo_takedown.groupDid', 'repo_root.groupDid')
    .select(['repo_root.groupDid', 'repo_root.cid', 'repo_root.rev', 'repo_takedown.createdAt as takenDownAt'])
  if (opts.cursor) q = q.where('repo_root.groupDid', '>', opts.cursor)
  const rows = await q.orderBy('repo_root.groupDid').limit(opts.limit).execute()
  const last = rows.at(-1)
  return {
    // A repo an operator took down is listed, inactive, as a PDS lists a taken-down account.
    repos: rows.map((r) => ({ did: r.groupDid, head: r.cid, rev: r.rev, ...(r.takenDownAt ? { active: false, status: 'takendown' as const } : { active: true }) })),
    ...(rows.length === opts.limit && last ? { cursor: last.groupDid } : {}),
  }
}

/** The group a `repo` parameter names, by DID or by handle; RepoNotFound for any other. */
export async function hostedRepo(db: Db, repo: string): Promise<{ did: string; handle: string }> {
  const row = await db
    .selectFrom('group')
    .select(['did', 'handle'])
    .where(repo.startsWith('did:') ? 'did' : 'handle', '=', repo)
    .executeTakeFirst()
  if (!row) throw repoNotFound(repo)
  await requireRepoServed(db, row.did)
  return row
}
