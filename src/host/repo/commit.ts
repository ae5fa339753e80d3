import type { Transaction } from 'kysely'
import { cborEncode } from '@atproto/lex-cbor'
import { InvalidRequestError } from '@atproto/xrpc-server'
import { blocksToCarFile, BlockMap, formatDataKey, Repo, WriteOpAction, type CommitData, type RecordWriteOp } from '@atproto/repo'
import type { HostDatabaseSchema } from '../db/schema.js'
import { lockGroup } from '../db/group-lock.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import { GroupRepoStorage, parseCid } from './storage.js'
import { groupSigningKey } from './signing-key.js'
import type { RepoRecord } from './records.js'
import { blobRefsIn, checkRepoBlobs } from './blobs.js'
import { addCommit, checkRecordBounds, repoTotals } from './bounds.js'

type Tx = Transaction<HostDatabaseSchema>
type Cid = Parameters<BlockMap['get']>[0]

/** One write as a caller asks for it; `swap` is the CID the record must have now (null: must not exist). */
export type RepoWrite =
  | { action: 'create'; collection: string; rkey: string; record: RepoRecord }
  | { action: 'put'; collection: string; rkey: string; record: RepoRecord; swap?: string | null }
  | { action: 'delete'; collection: string; rkey: string; swap?: string | null }

/** What each write did: the record's URI and CID (none for a delete). */
export interface WriteResult {
  action: 'create' | 'update' | 'delete'
  uri: string
  cid?: string
}

export interface CommitResult {
  cid: string
  rev: string
  results: WriteResult[]
}

/** A firehose op: the path, its new CID (null when deleted), the one before (absent when created). */
interface FrameOp {
  action: 'create' | 'update' | 'delete'
  path: string
  cid: Cid | null
  prev?: Cid
}

/**
 * Commits `writes` to the group's public repo as one signed commit, inside the caller's
 * transaction and under the group's lock (commits follow one another: each names the
 * rev before it). The repo is made lazily, by the group's first write: its first commit
 * is the genesis commit holding that write. Besides the blocks and the new root, it
 * keeps the record index (listRecords), the `#commit` frame subscribeRepos sends, and one
 * change per record in the group's change log (kinds record.created/updated/deleted,
 * subject the record's at:// URI), which also records who acted (audit/acting.ts).
 * A delete of a record that is not there changes nothing, as on a PDS. `changeLog: false`
 * is for the host's own writes that follow a change already logged (profile.ts).
 */
export async function commitWrites(
  tx: Tx,
  hostKey: Buffer,
  groupDid: string,
  writes: RepoWrite[],
  swapCommit?: string,
  opts: { changeLog?: boolean } = {},
): Promise<CommitResult> {
  const changeLog = opts.changeLog ?? true
  await lockGroup(tx, groupDid)
  const storage = new GroupRepoStorage(tx, groupDid)
  const root = await storage.getRootDetailed()
  if (swapCommit !== undefined && swapCommit !== root?.cid.toString()) {
    throw new InvalidRequestError('The group’s repo has moved on since that commit: read it again', 'InvalidSwap')
  }
  const ops: RecordWriteOp[] = []
  const frameOps: FrameOp[] = []
  const results: WriteResult[] = []
  /** The images each written record names, and its encoded size, by its place among `ops`. */
  const images: string[][] = []
  const sizes: number[] = []
  let records = 0
  let recordBytes = 0
  const seen = new Set<string>()
  for (const w of writes) {
    const path = formatDataKey(w.collection as never, w.rkey as never)
    if (seen.has(path)) throw refuse('InvalidRequest', `${path} is written twice in one call`)
    seen.add(path)
    const uri = `at://${groupDid}/${path}`
    const current = await tx
      .selectFrom('repo_record')
      .select(['cid', 'size'])
      .where('groupDid', '=', groupDid)
      .where('collection', '=', w.collection)
      .where('rkey', '=', w.rkey)
      .executeTakeFirst()
    const swap = 'swap' in w ? w.swap : undefined
    if (swap !== undefined && (swap ?? null) !== (current?.cid ?? null)) {
      throw new InvalidRequestError(`${path} is not as you last read it: read it again`, 'InvalidSwap')
    }
    if (w.action === 'delete') {
      if (!current) continue
      ops.push({ action: WriteOpAction.Delete, collection: w.collection as never, rkey: w.rkey as never })
      frameOps.push({ action: 'delete', path, cid: null, prev: parseCid(current.cid) })
      results.push({ action: 'delete', uri })
      images.push([])
      sizes.push(0)
      records--
      recordBytes -= Number(current.size)
      continue
    }
    if (current && w.action === 'create') throw refuse('InvalidRequest', `${path} already exists: putRecord overwrites`)
    const refs = blobRefsIn(w.record)
    await checkRepoBlobs(tx, groupDid, refs)
    images.push([...new Set(refs.map((r) => r.cid))])
    sizes.push(cborEncode(w.record).byteLength)
    if (!current) records++
    recordBytes += sizes[sizes.length - 1]! - Number(current?.size ?? 0)
    const action = current ? WriteOpAction.Update : WriteOpAction.Create
    ops.push({ action, collection: w.collection as never, rkey: w.rkey as never, record: w.record } as RecordWriteOp)
    frameOps.push({ action, path, cid: null, ...(current ? { prev: parseCid(current.cid) } : {}) })
    results.push({ action, uri })
  }
  if (!ops.length) {
    if (!root) throw refuse('RecordNotFound', 'The group’s repo has no records yet')
    return { cid: root.cid.toString(), rev: root.rev, results }
  }

  const totals = await repoTotals(tx, groupDid)
  checkRecordBounds(totals, records, recordBytes)

  const key = await groupSigningKey(tx, hostKey, groupDid)
  let commit: CommitData
  let prevData: Cid | undefined
  if (!root) {
    // Only creates reach an empty repo: a put of a missing record is one, a delete is dropped.
    commit = await Repo.formatInitCommit(storage, groupDid, key, ops as never)
  } else {
    const repo = await Repo.load(storage, root.cid)
    prevData = repo.commit.data
    commit = await repo.formatCommit(ops, key)
  }
  await storage.applyCommit(commit)
  const data = await Repo.load(storage, commit.cid)

  for (const [i, op] of ops.entries()) {
    const frameOp = frameOps[i]!
    const result = results[i]!
    await tx.deleteFrom('repo_record_blob').where('groupDid', '=', groupDid).where('collection', '=', op.collection).where('rkey', '=', op.rkey).execute()
    if (op.action === WriteOpAction.Delete) {
      await tx.deleteFrom('repo_record').where('groupDid', '=', groupDid).where('collection', '=', op.collection).where('rkey', '=', op.rkey).execute()
      if (changeLog) await recordChange(tx, groupDid, 'record.deleted', result.uri)
      continue
    }
    const cid = await data.data.get(formatDataKey(op.collection, op.rkey))
    if (!cid) throw new Error(`the commit lost ${frameOp.path}`)
    frameOp.cid = cid
    result.cid = cid.toString()
    const row = { groupDid, collection: op.collection as string, rkey: op.rkey as string, cid: cid.toString(), rev: commit.rev, size: sizes[i]! }
    await tx
      .insertInto('repo_record')
      .values(row)
      .onConflict((oc) => oc.columns(['groupDid', 'collection', 'rkey']).doUpdateSet({ cid: row.cid, rev: row.rev, size: row.size }))
      .execute()
    const named = images[i]!
    if (named.length) await tx.insertInto('repo_record_blob').values(named.map((c) => ({ groupDid, cid: c, collection: row.collection, rkey: row.rkey }))).execute()
    if (changeLog) await recordChange(tx, groupDid, op.action === WriteOpAction.Create ? 'record.created' : 'record.updated', result.uri)
  }

  const frameBytes = await storeFrame(tx, groupDid, commit, frameOps, prevData, [...new Set(images.flat())])
  await addCommit(tx, groupDid, totals, { records, recordBytes, frameBytes })
  return { cid: commit.cid.toString(), rev: commit.rev, results }
}

/**
 * The `#commit` message for subscribeRepos, as a PDS sequences one: the CAR of the new
 * blocks and the proofs a consumer checks the ops against, rooted at the commit, and
 * `prevData` (the MST root before) so the commit can be inverted, and the images its
 * records name (`blobs`). `seq` is the row's. Answers the frame's size.
 */
async function storeFrame(tx: Tx, groupDid: string, commit: CommitData, ops: FrameOp[], prevData: Cid | undefined, blobs: string[]): Promise<number> {
  const blocks = new BlockMap()
  blocks.addMap(commit.newBlocks)
  blocks.addMap(commit.relevantBlocks)
  const time = new Date().toISOString()
  const frame = {
    rebase: false,
    tooBig: false,
    repo: groupDid,
    commit: commit.cid,
    rev: commit.rev,
    since: commit.since,
    blocks: await blocksToCarFile(commit.cid, blocks),
    ops: ops.map((op) => ({ action: op.action, path: op.path, cid: op.cid, ...(op.prev ? { prev: op.prev } : {}) })),
    blobs: blobs.map(parseCid),
    ...(prevData ? { prevData } : {}),
    time,
  }
  const bytes = Buffer.from(cborEncode(frame as never))
  await tx.insertInto('repo_event').values({ groupDid, rev: commit.rev, frame: bytes, time }).execute()
  return bytes.length
}
