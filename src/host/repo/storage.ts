import type { Kysely } from 'kysely'
import { CID } from 'multiformats/cid'
import { BlockMap, CidSet, ReadableBlockstore, type CommitData, type RepoStorage } from '@atproto/repo'
import type { HostDatabaseSchema } from '../db/schema.js'

type Cid = Parameters<BlockMap['get']>[0]

/** A CID as stored (its string form), back as the object @atproto/repo takes. */
export const parseCid = (text: string): Cid => CID.parse(text) as unknown as Cid

/** How many CIDs one `IN (…)` names: well under either database's bound on parameters. */
const BATCH = 400

/**
 * One group's public repo's blocks in the host database, as @atproto/repo reads and
 * writes a repository (its `RepoStorage`): the blocks by CID (`repo_block`) and the
 * current commit (`repo_root`). Made for one transaction or one read; it caches what it
 * read, since an MST walk asks for the same nodes again.
 */
export class GroupRepoStorage extends ReadableBlockstore implements RepoStorage {
  private cache = new BlockMap()

  constructor(
    private readonly db: Kysely<HostDatabaseSchema>,
    readonly groupDid: string,
  ) {
    super()
  }

  /** The current commit and its rev, or null before the group's first write. */
  async getRootDetailed(): Promise<{ cid: Cid; rev: string } | null> {
    const row = await this.db.selectFrom('repo_root').select(['cid', 'rev']).where('groupDid', '=', this.groupDid).executeTakeFirst()
    return row ? { cid: parseCid(row.cid), rev: row.rev } : null
  }

  async getRoot(): Promise<Cid | null> {
    return (await this.getRootDetailed())?.cid ?? null
  }

  async getBytes(cid: Cid): Promise<Uint8Array | null> {
    const cached = this.cache.get(cid)
    if (cached) return cached
    const row = await this.db
      .selectFrom('repo_block')
      .select('content')
      .where('groupDid', '=', this.groupDid)
      .where('cid', '=', cid.toString())
      .executeTakeFirst()
    if (!row) return null
    const bytes = new Uint8Array(row.content)
    this.cache.set(cid, bytes)
    return bytes
  }

  async has(cid: Cid): Promise<boolean> {
    return (await this.getBytes(cid)) !== null
  }

  async getBlocks(cids: Cid[]): Promise<{ blocks: BlockMap; missing: Cid[] }> {
    const { blocks, missing } = this.cache.getMany(cids)
    if (!missing.length) return { blocks, missing }
    const stillMissing = new CidSet(missing)
    for (let i = 0; i < missing.length; i += BATCH) {
      const rows = await this.db
        .selectFrom('repo_block')
        .select(['cid', 'content'])
        .where('groupDid', '=', this.groupDid)
        .where('cid', 'in', missing.slice(i, i + BATCH).map((c) => c.toString()))
        .execute()
      for (const row of rows) {
        const cid = parseCid(row.cid)
        const bytes = new Uint8Array(row.content)
        blocks.set(cid, bytes)
        this.cache.set(cid, bytes)
        stillMissing.delete(cid)
      }
    }
    return { blocks, missing: stillMissing.toList() }
  }

  async putBlock(cid: Cid, block: Uint8Array, rev: string): Promise<void> {
    await this.putMany(new BlockMap([[cid, block]]), rev)
  }

  async putMany(blocks: BlockMap, rev: string): Promise<void> {
    const rows = [...blocks].map(([cid, content]) => ({ groupDid: this.groupDid, cid: cid.toString(), rev, content: Buffer.from(content) }))
    for (let i = 0; i < rows.length; i += 50) {
      await this.db.insertInto('repo_block').values(rows.slice(i, i + 50)).onConflict((oc) => oc.columns(['groupDid', 'cid']).doNothing()).execute()
    }
    this.cache.addMap(blocks)
  }

  async updateRoot(cid: Cid, rev: string): Promise<void> {
    const values = { groupDid: this.groupDid, cid: cid.toString(), rev, updatedAt: new Date().toISOString() }
    await this.db
      .insertInto('repo_root')
      .values(values)
      .onConflict((oc) => oc.column('groupDid').doUpdateSet({ cid: values.cid, rev, updatedAt: values.updatedAt }))
      .execute()
  }

  /** Stores a commit's new blocks, drops those it no longer uses, and makes it the root. */
  async applyCommit(commit: CommitData): Promise<void> {
    await this.putMany(commit.newBlocks, commit.rev)
    const removed = commit.removedCids.toList().map((c) => c.toString())
    for (let i = 0; i < removed.length; i += BATCH) {
      await this.db.deleteFrom('repo_block').where('groupDid', '=', this.groupDid).where('cid', 'in', removed.slice(i, i + BATCH)).execute()
    }
    await this.updateRoot(commit.cid, commit.rev)
  }
}
