import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db'
import { putItem, readItems } from '../../src/main/core/cache/items'
import { fillListHandles, knownHandles, RECHECK_MS } from '../../src/main/core/people/list-handles'

const GROUP = 'did:plc:group'

describe('handles for the people join requests and invites name by DID (real SQLite cache)', () => {
  let dir: string
  let cache: CacheDb
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-list-handles-'))
    cache = await openCacheDb(dir, 'did:plc:me')
    for (const did of ['did:plc:alice', 'did:plc:bob', 'did:plc:nobody']) {
      await putItem(cache, GROUP, 'joinRequest', did, { id: did, did, createdAt: '2026-01-01T00:00:00.000Z', message: null, handle: null }, null)
    }
    await putItem(cache, GROUP, 'invite', 'did:plc:alice', { uri: 'at://x', invitee: 'did:plc:alice', createdAt: '2026-01-01T00:00:00.000Z', expiresAt: null, message: null, awaitingInvitee: false }, null)
    // Reports: one about an account (looked up), one about a post (its key is an address, not a person).
    await putItem(cache, GROUP, 'subject', 'did:plc:alice', { key: 'did:plc:alice', subject: { did: 'did:plc:alice' }, status: 'open', reportCount: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', handle: null }, null)
    const post = 'at://did:plc:x/app.bsky.feed.post/1'
    await putItem(cache, GROUP, 'subject', post, { key: post, subject: { uri: post }, status: 'open', reportCount: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', handle: null }, null)
    // A member whose host sent a handle that does not check out: the verified one wins.
    await putItem(cache, GROUP, 'member', 'did:plc:alice', { did: 'did:plc:alice', handle: 'impostor.test', roles: ['member'], joinedAt: '2026-01-01T00:00:00.000Z', accepted: true }, null)
  })
  afterEach(async () => {
    await cache.destroy()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const directory: Record<string, string | null> = { 'did:plc:alice': 'alice.test', 'did:plc:nobody': null }
  const lookUps: string[] = []
  const lookUp = async (did: string) => {
    lookUps.push(did)
    if (did === 'did:plc:bob') throw new Error('directory unreachable')
    return directory[did] ?? null
  }

  it('writes verified handles onto the rows, remembers "none", and leaves for later whom it could not ask', async () => {
    lookUps.length = 0
    const { due, changed } = await fillListHandles(cache, GROUP, lookUp)
    expect(due).toBe(3)
    expect(changed).toBe(4) // alice's request, invite, report and member row; nobody's row already said null
    const requests = await readItems<{ did: string; handle: string | null }>(cache, GROUP, 'joinRequest')
    expect(Object.fromEntries(requests.map((r) => [r.did, r.handle]))).toEqual({ 'did:plc:alice': 'alice.test', 'did:plc:bob': null, 'did:plc:nobody': null })
    expect((await readItems<{ handle: string | null }>(cache, GROUP, 'invite'))[0]!.handle).toBe('alice.test')
    expect((await readItems<{ handle: string | null }>(cache, GROUP, 'member'))[0]!.handle).toBe('alice.test')
    const reports = await readItems<{ key: string; handle: string | null }>(cache, GROUP, 'subject')
    expect(Object.fromEntries(reports.map((r) => [r.key, r.handle]))).toEqual({ 'did:plc:alice': 'alice.test', 'at://did:plc:x/app.bsky.feed.post/1': null })
    expect(Object.fromEntries(await knownHandles(cache, ['did:plc:alice', 'did:plc:bob', 'did:plc:nobody']))).toEqual({ 'did:plc:alice': 'alice.test', 'did:plc:nobody': null })
    expect([...new Set(lookUps)].sort()).toEqual(['did:plc:alice', 'did:plc:bob', 'did:plc:nobody'])

    // The next pass asks only for whom it could not ask before; a day later, everyone again.
    lookUps.length = 0
    expect(await fillListHandles(cache, GROUP, lookUp)).toEqual({ due: 1, changed: 0 })
    expect(lookUps).toEqual(['did:plc:bob'])
    lookUps.length = 0
    await fillListHandles(cache, GROUP, lookUp, Date.now() + RECHECK_MS + 1000)
    expect([...lookUps].sort()).toEqual(['did:plc:alice', 'did:plc:bob', 'did:plc:nobody'])
  })

  it('moves the list revision only for rows whose handle changed, so windows refresh once', async () => {
    const revision = async () => (await cache.selectFrom('item_revision').select('n').where('groupDid', '=', GROUP).where('kind', '=', 'joinRequest').executeTakeFirst())?.n
    await fillListHandles(cache, GROUP, lookUp)
    const after = await revision()
    await fillListHandles(cache, GROUP, lookUp, Date.now() + RECHECK_MS + 1000)
    expect(await revision()).toBe(after)
  })
})
