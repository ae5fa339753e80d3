import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db'
import { putItem, readItems } from '../../src/main/core/cache/items'
import { AVATAR_MAX_BYTES, createProfileReader, type Profile } from '../../src/main/core/people/profile-reader'
import { fillListProfiles, knownProfiles, PROFILE_RECHECK_MS, withProfiles } from '../../src/main/core/people/profile-cache'
import { nameLabels } from '../../src/main/core/people/name-labels'
import { rememberHandle } from '../../src/main/core/people/list-handles'
import type { OutboxRow } from '../../src/main/core/outbox/outbox'

const PDS = 'https://pds.example'
const PLC = 'https://plc.example'
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])

/** A fake network: one PDS holding records and blobs, a PLC audit log, and every URL asked for. */
function fakeNetwork(records: Record<string, unknown>, blobs: Record<string, Buffer> = {}) {
  const asked: string[] = []
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input))
    asked.push(`${url.pathname}${url.search}`)
    if (url.pathname === '/xrpc/com.atproto.repo.getRecord') {
      const did = url.searchParams.get('repo')!
      if (did === 'did:plc:down') return new Response('oops', { status: 502 })
      const value = records[did]
      return value ? Response.json({ uri: `at://${did}/app.bsky.actor.profile/self`, value }) : Response.json({ error: 'RecordNotFound', message: 'no' }, { status: 400 })
    }
    if (url.pathname === '/xrpc/com.atproto.sync.getBlob') {
      const blob = blobs[url.searchParams.get('cid')!]
      return blob ? new Response(blob) : new Response('', { status: 404 })
    }
    if (url.pathname.endsWith('/log/audit')) return Response.json([{ createdAt: '2024-03-01T10:00:00.000Z' }, { createdAt: '2025-01-01T00:00:00.000Z' }])
    return new Response('', { status: 404 })
  }) as typeof globalThis.fetch
  const idResolver = { did: { resolve: async (did: string) => (did === 'did:plc:gone' ? null : { id: did, service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: PDS }] }) } }
  return { asked, read: createProfileReader({ idResolver: idResolver as never, fetch, plc: { url: PLC, fetch } }) }
}

const blobRef = (cid: string, size: number) => ({ $type: 'blob', ref: { $link: cid }, mimeType: 'image/png', size })

describe('reading a profile from the person’s own PDS', () => {
  it('takes the name, bio, a small avatar as a data: URL, and the account’s first registration', async () => {
    const { read } = fakeNetwork({ 'did:plc:alice': { displayName: '  Alice  ', description: 'Hi', avatar: blobRef('bafyavatar', PNG.length) } }, { bafyavatar: PNG })
    expect(await read('did:plc:alice')).toEqual({
      displayName: 'Alice',
      description: 'Hi',
      avatar: `data:image/png;base64,${PNG.toString('base64')}`,
      avatarCid: 'bafyavatar',
      accountCreatedAt: '2024-03-01T10:00:00.000Z',
    })
  })

  it('leaves out an avatar that is too big (not even fetched) or is not an image', async () => {
    const { read, asked } = fakeNetwork(
      { 'did:plc:big': { avatar: blobRef('bafybig', AVATAR_MAX_BYTES + 1) }, 'did:plc:html': { avatar: blobRef('bafyhtml', 20) } },
      { bafyhtml: Buffer.from('<script>alert(1)</script>') },
    )
    expect((await read('did:plc:big')).avatar).toBeNull()
    expect(asked.some((a) => a.includes('bafybig'))).toBe(false)
    const html = await read('did:plc:html')
    expect(html.avatar).toBeNull()
    expect(html.avatarCid).toBe('bafyhtml')
  })

  it('answers an empty profile for someone without one, and throws when the PDS could not be asked', async () => {
    const { read } = fakeNetwork({})
    expect(await read('did:plc:plain')).toMatchObject({ displayName: null, description: null, avatar: null })
    await expect(read('did:plc:down')).rejects.toThrow()
    await expect(read('did:plc:gone')).rejects.toThrow()
  })
})

describe('profiles kept in the cache and put on the lists (real SQLite cache)', () => {
  const GROUP = 'did:plc:group'
  let dir: string
  let cache: CacheDb
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-profiles-'))
    cache = await openCacheDb(dir, 'did:plc:me')
    for (const did of ['did:plc:alice', 'did:plc:bob']) {
      await putItem(cache, GROUP, 'joinRequest', did, { id: did, did, createdAt: '2026-01-01T00:00:00.000Z', message: null, handle: null }, null)
    }
    await putItem(cache, GROUP, 'member', 'did:plc:alice', { did: 'did:plc:alice', handle: 'alice.test', roles: ['member'], joinedAt: '2026-01-01T00:00:00.000Z', accepted: true }, null)
  })
  afterEach(async () => {
    await cache.destroy()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const alice: Profile = { displayName: 'Alice', description: 'Hi', avatar: 'data:image/png;base64,AAAA', avatarCid: 'bafy1', accountCreatedAt: null }

  it('keeps what it read, puts names on the rows, and keeps the old profile when a later read fails', async () => {
    let down = false
    const asked: string[] = []
    const read = async (did: string) => {
      asked.push(did)
      if (down || did === 'did:plc:bob') throw new Error('PDS not answering')
      return alice
    }
    expect(await fillListProfiles(cache, GROUP, read)).toEqual({ due: 2, changed: 2 }) // alice's request and member row
    const rows = await readItems<{ did: string; displayName?: string | null }>(cache, GROUP, 'joinRequest')
    expect(Object.fromEntries(rows.map((r) => [r.did, r.displayName ?? null]))).toEqual({ 'did:plc:alice': 'Alice', 'did:plc:bob': null })

    // Not read again before it is due: only bob, whom it could not ask.
    asked.length = 0
    await fillListProfiles(cache, GROUP, read)
    expect(asked).toEqual(['did:plc:bob'])

    // Due again, but the PDS is down: alice's profile stays as it was.
    down = true
    await fillListProfiles(cache, GROUP, read, Date.now() + PROFILE_RECHECK_MS + 1000)
    expect((await knownProfiles(cache, ['did:plc:alice'])).get('did:plc:alice')?.displayName).toBe('Alice')

    // A page in view gets the face from the profile table.
    const [page] = await withProfiles(cache, [{ did: 'did:plc:alice' }], (r) => r.did)
    expect(page).toMatchObject({ displayName: 'Alice', avatar: 'data:image/png;base64,AAAA', description: 'Hi' })
  })

  it('names people in pending changes by name, "yourself" for the account, never by DID', async () => {
    await fillListProfiles(cache, GROUP, async (did) => (did === 'did:plc:alice' ? alice : Promise.reject(new Error('no'))))
    await rememberHandle(cache, 'did:plc:alice', 'alice.test')
    await rememberHandle(cache, 'did:plc:bob', 'bob.test')
    const row = (id: number, kind: string, payload: unknown, label: string) => ({ id, kind, payload, label, groupDid: GROUP }) as unknown as OutboxRow
    const labels = await nameLabels(cache, 'did:plc:me', [
      row(1, 'joinRequest.decide', { did: 'did:plc:alice', decision: 'admit' }, 'Admit did:plc:alice'),
      row(2, 'member.revokeRole', { did: 'did:plc:me', role: 'owner' }, 'Take the owner role from did:plc:me'),
      row(3, 'invite.create', { invitee: 'did:plc:bob' }, 'Invite did:plc:bob'),
      row(4, 'member.eject', { did: 'did:plc:stranger' }, 'Remove did:plc:stranger from the group'),
    ])
    expect(labels).toEqual(['Admit Alice (@alice.test)', 'Take the owner role from yourself', 'Invite @bob.test', 'Remove someone not yet looked up from the group'])
    for (const l of labels) expect(l).not.toMatch(/did:/)
  })
})

describe('lists are searched by display name too', () => {
  it('finds a member, a join request, an invite and a reported account by part of their name, any case', async () => {
    const { memberList } = await import('../../src/main/core/reading/member-list')
    const { joinRequestList } = await import('../../src/main/core/reading/join-request-list')
    const { inviteList } = await import('../../src/main/core/reading/invite-list')
    const { subjectList } = await import('../../src/main/core/reading/subject-list')
    const named = { did: 'did:plc:a', invitee: 'did:plc:a', key: 'did:plc:a', handle: 'a.test', displayName: 'Olivia Hart', message: null } as never
    for (const shape of [memberList(['owner']), joinRequestList, inviteList, subjectList] as { matches: (i: never, n: string) => boolean }[]) {
      expect(shape.matches(named, 'olivia h')).toBe(true)
      expect(shape.matches(named, 'nobody')).toBe(false)
    }
  })
})
