import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { Secp256k1Keypair } from '@atproto/crypto'
import { concatBytesAsync, readCarWithRoot, verifyRepoCar } from '@atproto/repo'
import { cborEncode } from '@atproto/lex-cbor'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { hostDbBefore } from '../support/host-migrations.js'
import { groupKeyContext, seal } from '../../src/host/secrets/sealed.js'
import { keyToBytes } from '../../src/host/identity/plc.js'
import { commitWrites } from '../../src/host/repo/commit.js'
import { listRepoRecords, repoCarStream } from '../../src/host/repo/reads.js'

const GROUP = 'did:plc:groupaaaaaaaaaaaaaaaaaaa'
const POST = 'app.bsky.feed.post'

/**
 * A database just past migration 025 with one group (its roles as before 025) and its
 * sealed key; `latest`: migrated on to the latest, as a host is, for the live code to run on.
 */
async function withGroup(opts: { latest?: boolean } = { latest: true }) {
  const hostKey = randomBytes(32)
  const key = await Secp256k1Keypair.create({ exportable: true })
  const { db, migrate, migrateToLatest } = await hostDbBefore('025-group-repo')
  await db
    .insertInto('group')
    .values({ did: GROUP, handle: 'g.test', displayName: null, description: null, joinPolicy: 'open', rotationKeySealed: seal(hostKey, await keyToBytes(key), groupKeyContext(GROUP)), createdAt: '', createdBy: null })
    .execute()
  for (const [name, actions] of [['owner', ['group.configure']], ['admin', ['invite']], ['member', []]] as const) {
    await db.insertInto('role').values({ groupDid: GROUP, name, actions: JSON.stringify(actions), assignable: '[]' }).execute()
  }
  await migrate()
  if (opts.latest) await migrateToLatest()
  return { db, hostKey, key }
}

const post = (text: string) => ({ $type: POST, text, createdAt: '2030-01-01T00:00:00.000Z' })

describe("the group's public repo in the host database", () => {
  it('gives existing owners and admins repo.write, and nobody else', async () => {
    const { db } = await withGroup({ latest: false })
    const roles = await db.selectFrom('role').select(['name', 'actions']).orderBy('name').execute()
    expect(roles.map((r) => [r.name, JSON.parse(r.actions)])).toEqual([
      ['admin', ['invite', 'repo.write']],
      ['member', []],
      ['owner', ['group.configure', 'repo.write']],
    ])
  })

  it('commits writes that a reader of the CAR verifies with the group key, across several commits', async () => {
    const { db, hostKey, key } = await withGroup()
    const first = await db.transaction().execute((tx) => commitWrites(tx, hostKey, GROUP, [{ action: 'create', collection: POST, rkey: '3aaaaaaaaaaa2', record: post('one') }]))
    const second = await db.transaction().execute((tx) =>
      commitWrites(tx, hostKey, GROUP, [
        { action: 'create', collection: POST, rkey: '3aaaaaaaaaaa3', record: post('two') },
        { action: 'delete', collection: POST, rkey: '3aaaaaaaaaaa2' },
      ]),
    )
    expect(second.rev > first.rev).toBe(true)
    const verified = await verifyRepoCar(await concatBytesAsync(await repoCarStream(db, GROUP)), GROUP, key.did())
    expect(verified.creates.map((c) => c.rkey)).toEqual(['3aaaaaaaaaaa3'])
    expect((await listRepoRecords(db, GROUP, { collection: POST, limit: 10 })).records.map((r) => r.value.text)).toEqual(['two'])
    // One firehose frame per commit, and blocks the deleted record alone used are gone.
    expect(await db.selectFrom('repo_event').select('rev').orderBy('seq').execute()).toEqual([{ rev: first.rev }, { rev: second.rev }])
    expect(await db.selectFrom('repo_block').select('cid').where('cid', '=', first.results[0]!.cid!).execute()).toEqual([])

    // `since` a commit: the blocks of later commits only, rooted at the newest, as a PDS answers (the record
    // 'two' from the second commit, still in the repo, is not sent again).
    const third = await db.transaction().execute((tx) => commitWrites(tx, hostKey, GROUP, [{ action: 'create', collection: POST, rkey: '3aaaaaaaaaaa4', record: post('three') }]))
    const diff = await readCarWithRoot(await concatBytesAsync(await repoCarStream(db, GROUP, second.rev)))
    const all = await readCarWithRoot(await concatBytesAsync(await repoCarStream(db, GROUP)))
    expect(diff.root.toString()).toBe(third.cid)
    const cids = (car: typeof all) => [...car.blocks].map(([cid]) => cid.toString()).sort()
    const written = await db.selectFrom('repo_block').select('cid').where('rev', '=', third.rev).execute()
    expect(cids(diff)).toEqual(written.map((r) => r.cid).sort())
    expect(cids(diff)).toContain(third.results[0]!.cid)
    expect(cids(all)).toContain(second.results[0]!.cid)
    expect(cids(diff)).not.toContain(second.results[0]!.cid)
  })

  it('refuses to create over a record, and a swap that does not match', async () => {
    const { db, hostKey } = await withGroup()
    const write = (w: Parameters<typeof commitWrites>[3]) => db.transaction().execute((tx) => commitWrites(tx, hostKey, GROUP, w))
    await write([{ action: 'create', collection: POST, rkey: '3aaaaaaaaaaa2', record: post('one') }])
    await expect(write([{ action: 'create', collection: POST, rkey: '3aaaaaaaaaaa2', record: post('again') }])).rejects.toThrow(/already exists/)
    await expect(write([{ action: 'put', collection: POST, rkey: '3aaaaaaaaaaa2', record: post('again'), swap: null }])).rejects.toMatchObject({ customErrorName: 'InvalidSwap' })
  })

  it('fills, on upgrade, the repo totals and which record names which image (migration 036)', async () => {
    const { db, migrate } = await hostDbBefore('036-repo-bounds')
    const now = '2030-01-01T00:00:00.000Z'
    const imageBytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, ...randomBytes(20)])
    const image = CID.createV1(0x55, await sha256.digest(imageBytes))
    const other = CID.createV1(0x55, await sha256.digest(randomBytes(20)))
    const record = (withImage: boolean) => cborEncode({ $type: POST, text: 'hi', createdAt: now, ...(withImage ? { embed: { images: [{ image: { $type: 'blob', ref: image, mimeType: 'image/png', size: imageBytes.length } }] } } : {}) } as never)
    const blocks = [record(true), record(false)]
    const cids = await Promise.all(blocks.map(async (b) => CID.createV1(0x71, await sha256.digest(b)).toString()))
    await db.insertInto('repo_root').values({ groupDid: GROUP, cid: 'bafyroot', rev: 'r1', updatedAt: now } as never).execute()
    for (const [i, content] of blocks.entries()) {
      await db.insertInto('repo_block').values({ groupDid: GROUP, cid: cids[i]!, rev: 'r1', content }).execute()
      await db.insertInto('repo_record').values({ groupDid: GROUP, collection: POST, rkey: `k${i}`, cid: cids[i]!, rev: 'r1' } as never).execute()
    }
    for (const cid of [image, other]) {
      await db.insertInto('repo_blob').values({ groupDid: GROUP, cid: cid.toString(), mimeType: 'image/png', size: 24, content: imageBytes, createdAt: now }).execute()
    }
    for (const frame of [Buffer.alloc(100), Buffer.alloc(50)]) await db.insertInto('repo_event').values({ groupDid: GROUP, rev: 'r1', frame, time: now }).execute()
    await migrate()
    expect(await db.selectFrom('repo_root').select(['recordCount', 'recordBytes', 'frameCount', 'frameBytes']).executeTakeFirst()).toEqual({
      recordCount: 2,
      recordBytes: blocks[0]!.length + blocks[1]!.length,
      frameCount: 2,
      frameBytes: 150,
    })
    expect(await db.selectFrom('repo_record_blob').selectAll().execute()).toEqual([{ groupDid: GROUP, cid: image.toString(), collection: POST, rkey: 'k0' }])
  })
})
