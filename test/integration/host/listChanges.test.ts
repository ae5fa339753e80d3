import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

interface Change {
  seq: number
  kind: string
  subject?: string
  createdAt: string
}
const group = () => net.group('open').did
const changes = (by: Parameters<typeof net.as>[0], params: Record<string, string | number | undefined> = {}, groupDid = group()) =>
  as(by).call<{ changes: Change[]; cursor: string; error?: string }>('example.groups.listChanges', { params: { group: groupDid, ...params } })

/** Where the group's change log ends now: the cursor a reader who has seen everything holds. */
const latest = async () => (await changes('member', { limit: 100 })).body.cursor

describe('example.groups.listChanges', () => {
  it('starts from the beginning of the group: its creation', async () => {
    const res = await changes('member')
    expect(res.status).toBe(200)
    expect(res.body.changes).toEqual([{ seq: expect.any(Number), kind: 'group.created', subject: group(), createdAt: expect.any(String) }])
    expect(typeof res.body.cursor).toBe('string')
  })

  it('returns nothing new, and a cursor to keep polling with, when nothing happened', async () => {
    const cursor = await latest()
    const res = await changes('member', { cursor })
    expect(res).toMatchObject({ status: 200, body: { changes: [] } })
    expect(res.body.cursor).toBe(cursor)
  })

  it("shows what happened since the cursor, oldest first, and nothing from other groups", async () => {
    const outsider = as('outsider').did
    const cursor = await latest()
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: group() } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect((await as('owner').call('example.groups.grantRole', { body: { group: group(), did: outsider, role: 'moderator' } })).status).toBe(200)
    expect((await as('owner').call('example.groups.configureGroup', { body: { group: net.group('approval').did, displayName: 'Elsewhere' } })).status).toBe(200)
    expect((await as('admin').call('example.groups.revokeRole', { body: { group: group(), did: outsider, role: 'moderator' } })).status).toBe(200)

    const res = await changes('member', { cursor })
    expect(res.body.changes.map((c) => [c.kind, c.subject])).toEqual([
      ['member.joined', outsider],
      ['member.roleGranted', outsider],
      ['member.roleRevoked', outsider],
    ])
    const seqs = res.body.changes.map((c) => c.seq)
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs)
    expect(res.body.cursor).not.toBe(cursor)
    expect((await changes('member', { cursor: res.body.cursor })).body.changes).toEqual([])
  })

  it('pages by limit, each cursor picking up where the last page ended', async () => {
    // A group of its own with three changes: created, and two people joined.
    const made = await as('owner').call<{ did: string }>('example.groups.createGroup', { body: { handle: `paging${Date.now().toString(36)}.groups.test`, joinPolicy: 'open' } })
    expect(made.status).toBe(200)
    const own = made.body.did
    for (const name of ['outsider', 'outsider2'] as const) expect((await as(name).call('example.groups.requestJoin', { body: { group: own } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    const all = (await changes('owner', { limit: 100 }, own)).body.changes
    expect(all.map((c) => c.kind)).toEqual(['group.created', 'member.joined', 'member.joined'])
    const seen: Change[] = []
    let next: string | undefined
    for (let i = 0; i < 10; i++) {
      const res = await changes('owner', { limit: 1, cursor: next }, own)
      if (res.body.changes.length === 0) break
      expect(res.body.changes).toHaveLength(1)
      seen.push(...res.body.changes)
      next = res.body.cursor
    }
    expect(seen).toEqual(all)
  })

  it('keeps moderation reports to holders of mod.read', async () => {
    const report = { group: group(), subject: { $type: 'example.groups.defs#subjectAccount', did: as('outsider2').did }, reasonType: 'spam' }
    const before = (await changes('moderator', { limit: 100 })).body.cursor
    expect((await as('member').call('example.groups.createReport', { body: report })).status).toBe(200)
    expect((await changes('moderator', { cursor: before })).body.changes.map((c) => [c.kind, c.subject])).toEqual([['subject.reported', as('outsider2').did]])
    expect((await changes('member', { cursor: before })).body.changes).toEqual([])
  })

  it('refuses non-members: Forbidden', async () => {
    expect(await changes('outsider2')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('answers InvalidRequest for a malformed cursor and an unknown group', async () => {
    for (const bad of ['***', Buffer.from('abc').toString('base64url'), Buffer.from('-1').toString('base64url')]) {
      expect((await changes('member', { cursor: bad })).body.error, bad).toBe('InvalidRequest')
    }
    expect(await changes('member', {}, 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa')).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
