import { afterAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

/**
 * Runs once an answer to a request of this process (the core runs in it) has arrived,
 * before the caller sees it: how a test makes something happen in the middle of the app's
 * work. Set before the core starts, which keeps the `fetch` it finds.
 */
let afterResponse: ((url: URL) => Promise<void>) | null = null
const realFetch = globalThis.fetch
globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
  const res = await realFetch(input, init)
  await afterResponse?.(new URL(input instanceof Request ? input.url : String(input)))
  return res
}) as typeof fetch
afterAll(() => {
  globalThis.fetch = realFetch
})

useSignedInCore(net, {}, (signedIn) => ({ app, owner } = signedIn))

let made = 0
/**
 * A new approval group of the owner's, started through the app (which then follows it):
 * for a test that changes who is in a group, so it needs no earlier test's people.
 */
async function newGroup(): Promise<string> {
  return (await app.call('groups.create', { accountDid: owner, handle: `organizer${Date.now().toString(36)}${made++}.groups.test`, joinPolicy: 'approval' })).did
}

/** `name` asks to join and is admitted on the host (the owner, on another device); the app has synced since. */
async function admitted(groupDid: string, name: 'outsider' | 'outsider2') {
  expect((await net.as(name).call('example.groups.requestJoin', { body: { group: groupDid } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
  expect((await net.as('owner').call('example.groups.admitMember', { body: { group: groupDid, did: net.as(name).did, decision: 'admit' } })).status).toBe(200)
  await app.call('sync.now', {})
}

/** The seeded approval group, followed by the app (adding it again changes nothing). */
async function seededApproval(): Promise<string> {
  return (await app.call('groups.add', { accountDid: owner, ref: net.group('approval').did })).did
}

describe('organizer actions through the core (real PDS sign-in, real host)', () => {
  it('adds a group by handle and shows the caller’s roles and actions', async () => {
    const group = await app.call('groups.add', { accountDid: owner, ref: net.group('approval').handle })
    expect(group.did).toBe(net.group('approval').did)
    expect(group.roles).toEqual(['owner'])
    expect(group.actions).toEqual(expect.arrayContaining(['admit', 'invite', 'mod.read', 'group.configure']))
    expect(group.hostUrl).toBe(net.stack.host.url)
    // The sign-in granted every method these roles use here, so nothing needs asking for.
    expect(group.missingScopes).toEqual([])
    const listed = await app.call('groups.list', {})
    expect(listed.map((g) => g.did)).toContain(group.did)
  })

  it('sees a new join request after a sync, admits it, and the member appears', async () => {
    const groupDid = await newGroup()
    await net.as('outsider').call('example.groups.requestJoin', { body: { group: groupDid, message: 'May I?' } })
    await app.call('sync.now', {})
    const { items: requests } = await app.call('groups.joinRequests', { accountDid: owner, groupDid })
    expect(requests).toEqual([expect.objectContaining({ did: net.as('outsider').did, message: 'May I?', pending: false })])
    expect((await app.call('groups.list', {})).find((g) => g.did === groupDid)?.pendingRequests).toBe(1)
    // The host names them by DID only; their handle, checked both ways against the
    // directory and their PDS, follows in the background and can be searched by.
    const handle = net.stack.accounts.find((a) => a.name === 'outsider')!.handle
    await eventually(async () => (await app.call('groups.joinRequests', { accountDid: owner, groupDid })).items[0]?.handle === handle)
    expect((await app.call('groups.joinRequests', { accountDid: owner, groupDid, q: handle.split('.')[0] })).matched).toBe(1)

    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'joinRequest.decide', did: net.as('outsider').did, decision: 'admit' } })
    // The cached change shows at once, marked pending until the host confirms (a host
    // quicker than this read has removed it already): never as still waiting.
    const { items: meanwhile } = await app.call('groups.joinRequests', { accountDid: owner, groupDid })
    expect(meanwhile.filter((r) => !r.pending)).toEqual([])
    // …and the switcher's count follows at once (counts are kept only while the lists stand still).
    expect((await app.call('groups.list', {})).find((g) => g.did === groupDid)?.pendingRequests).toBe(0)
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    const members = await eventually(async () => {
      const m = await app.call('groups.members', { accountDid: owner, groupDid }).then((p) => p.items)
      return m.some((x) => x.did === net.as('outsider').did) && m
    })
    expect(members.find((m) => m.did === net.as('outsider').did)?.roles).toEqual(['member'])
    // The host sends members without handles; the verified one shows, and search finds it.
    await eventually(async () => (await app.call('groups.members', { accountDid: owner, groupDid, q: handle })).items.some((m) => m.did === net.as('outsider').did && m.handle === handle))
  })

  it('reports a conflict in plain words when someone else decided first, and does not double it', async () => {
    const groupDid = await seededApproval()
    const outsider2 = net.as('outsider2')
    await outsider2.call('example.groups.requestJoin', { body: { group: groupDid } })
    await app.call('sync.now', {})
    // Another organizer denies it on their own device…
    await net.as('admin').call('example.groups.admitMember', { body: { group: groupDid, did: outsider2.did, decision: 'deny' } })
    // …while this one admits from a cache that still shows it.
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'joinRequest.decide', did: outsider2.did, decision: 'admit' } })
    const conflict = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.state === 'conflict'))
    expect(conflict.detail).toBe('Someone else already decided this request, or it was withdrawn.')
    const members = await app.call('groups.members', { accountDid: owner, groupDid }).then((p) => p.items)
    expect(members.some((m) => m.did === outsider2.did)).toBe(false)
  })

  it('finds the person to invite by handle (with or without @, any case) or by DID, and says plainly when nobody has a handle', async () => {
    const person = net.stack.accounts.find((a) => a.name === 'outsider2')!
    const did = net.as('outsider2').did
    expect(await app.call('people.resolve', { ref: `@${person.handle.toUpperCase()}` })).toEqual({ did, handle: person.handle })
    expect(await app.call('people.resolve', { ref: did })).toEqual({ did, handle: person.handle })
    // A DID nobody can resolve yet is still taken: the host keeps a pending:<did> invite for it.
    expect(await app.call('people.resolve', { ref: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' })).toEqual({ did: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', handle: null })
    expect(await app.raw('people.resolve', { ref: 'nobody-such.test' })).toMatchObject({ ok: false, error: { code: 'HandleNotFound', message: 'No account has the handle @nobody-such.test, or it could not be looked up just now.' } })
    expect(await app.raw('people.resolve', { ref: 'not a handle' })).toMatchObject({ ok: false, error: { code: 'InvalidHandle' } })
  })

  it('invites, shows the invite, and revokes it', async () => {
    const groupDid = net.group('invite').did
    await app.call('groups.add', { accountDid: owner, ref: groupDid })
    const invitee = net.as('outsider2').did
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'invite.create', invitee, message: 'Join us' } })
    const invite = await eventually(async () => (await app.call('groups.invites', { accountDid: owner, groupDid })).items.find((i) => i.invitee === invitee && !i.pending && i.uri))
    expect(invite.uri).toMatch(/^(at:\/\/|pending:)/)
    // Searched in the core, by the invite's words or the invitee's DID.
    const found = await app.call('groups.invites', { accountDid: owner, groupDid, q: 'JOIN US' })
    expect(found.items.map((i) => i.invitee)).toContain(invitee)
    expect((await app.call('groups.invites', { accountDid: owner, groupDid, q: 'no such words' })).matched).toBe(0)
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'invite.revoke', invitee } })
    await eventually(async () => (await app.call('groups.invites', { accountDid: owner, groupDid })).total === 0)
  })

  it('grants and revokes a role within the assignable set', async () => {
    const groupDid = await newGroup()
    await admitted(groupDid, 'outsider')
    const outsider = net.as('outsider').did
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'member.grantRole', did: outsider, role: 'moderator' } })
    await eventually(async () => (await app.call('groups.members', { accountDid: owner, groupDid }).then((p) => p.items)).find((m) => m.did === outsider && !m.pending && m.roles.includes('moderator')))
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'member.revokeRole', did: outsider, role: 'moderator' } })
    await eventually(async () => (await app.call('groups.members', { accountDid: owner, groupDid }).then((p) => p.items)).find((m) => m.did === outsider && !m.pending && !m.roles.includes('moderator')))
  })

  it('ejects a member', async () => {
    const groupDid = await newGroup()
    await admitted(groupDid, 'outsider')
    const outsider = net.as('outsider').did
    expect((await app.call('groups.members', { accountDid: owner, groupDid })).items.map((m) => m.did)).toContain(outsider)
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'member.eject', did: outsider, note: 'test' } })
    await eventually(async () => !(await app.call('groups.members', { accountDid: owner, groupDid }).then((p) => p.items)).some((m) => m.did === outsider))
  })

  it('runs a second account side by side, and explains NotAssignable in plain words', async () => {
    const groupDid = await seededApproval()
    const admin = await app.signIn('admin')
    const summary = await app.call('groups.add', { accountDid: admin, ref: groupDid })
    expect(summary.roles).toEqual(['admin'])
    expect(summary.assignable.sort()).toEqual(['member', 'moderator'])
    expect((await app.call('groups.list', {})).filter((g) => g.did === groupDid).map((g) => g.accountDid).sort()).toEqual([admin, owner].sort())
    // An admin may not make someone an admin: the host refuses, the app says why.
    await app.call('groups.act', { accountDid: admin, groupDid, action: { kind: 'member.grantRole', did: net.as('member').did, role: 'admin' } })
    const refused = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.label.includes('admin role') && o.state === 'conflict'))
    expect(refused.detail).toBe('Your role does not let you give, take away or remove that role.')
    // The outcome names whom it was about, so the window can show it beside them.
    expect(refused).toMatchObject({ accountDid: admin, groupDid, kind: 'member.grantRole', target: net.as('member').did })
  })

  it('keeps actions taken while the host is down, and sends each exactly once when it is back', async () => {
    const groupDid = await newGroup()
    const people = [net.as('outsider'), net.as('outsider2')]
    for (const p of people) await p.call('example.groups.requestJoin', { body: { group: groupDid } })
    await app.call('sync.now', {})
    const changesSince = async () => {
      const res = await net.as('owner').call<{ changes: { seq: number; kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: groupDid, limit: 100 } })
      return res.body.changes
    }
    const before = Math.max(...(await changesSince()).map((c) => c.seq))
    await net.running.restartHost({
      whileDown: async () => {
        for (const p of people) {
          await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'joinRequest.decide', did: p.did, decision: 'admit' } })
        }
        // Offline: both stay queued, shown as waiting, the cached requests marked pending.
        await eventually(async () => {
          const queued = (await app.call('outbox.list', {})).filter((o) => o.label.startsWith('Admit') && o.state === 'queued')
          // The first was tried and kept; the queue stops there, so order is preserved.
          return queued.length === 2 && queued[0]!.attempts >= 1 && queued[0]!.detail !== null
        })
        const cached = (await app.call('groups.joinRequests', { accountDid: owner, groupDid })).items
        expect(cached.length).toBeGreaterThan(0)
        expect(cached.every((r) => r.pending)).toBe(true)
      },
    })
    await app.call('sync.now', {})
    await eventually(async () => !(await app.call('outbox.list', {})).some((o) => o.label.startsWith('Admit') && o.state !== 'conflict'))
    // A sent action leaves the pending list as soon as the host takes it; its effect lands
    // in the cache with the catch-up that follows, a moment later.
    const members = await eventually(async () => {
      const items = (await app.call('groups.members', { accountDid: owner, groupDid })).items
      return people.every((p) => items.some((m) => m.did === p.did)) ? items : null
    })
    for (const p of people) expect(members.filter((m) => m.did === p.did)).toHaveLength(1)
    // Exactly one admission each in the host's change log: nothing doubled.
    const after = (await changesSince()).filter((c) => c.seq > before)
    for (const p of people) {
      expect(after.filter((c) => c.kind === 'member.joined' && c.subject === p.did)).toHaveLength(1)
    }
  })

  it('what another organizer does while a whole read of the group is under way (a rename, an admission) is in the cache after the next catch-up', async () => {
    const groupDid = await newGroup()
    const person = net.as('outsider')
    expect((await person.call('example.groups.requestJoin', { body: { group: groupDid } })).status).toBe(200)
    await app.call('sync.now', {})
    // The other organizer's rename lands once the app has read the group, and their
    // admission once it has read the members, before its read ends.
    let admittedMidRead: Promise<unknown> | null = null
    let renamedMidRead: Promise<unknown> | null = null
    const other = net.as('owner')
    afterResponse = async (url) => {
      if (url.searchParams.get('group') !== groupDid) return
      if (!renamedMidRead && url.pathname.endsWith('/example.groups.getGroup')) {
        renamedMidRead = other.call('example.groups.configureGroup', { body: { group: groupDid, displayName: 'Renamed mid-read' } })
        expect(((await renamedMidRead) as { status: number }).status).toBe(200)
      }
      if (!admittedMidRead && url.pathname.endsWith('/example.groups.listMembers')) {
        admittedMidRead = other.call('example.groups.admitMember', { body: { group: groupDid, did: person.did, decision: 'admit' } })
        expect(((await admittedMidRead) as { status: number }).status).toBe(200)
      }
    }
    try {
      await app.call('groups.refresh', { accountDid: owner, groupDid })
    } finally {
      afterResponse = null
    }
    expect(admittedMidRead).not.toBeNull()
    expect(renamedMidRead).not.toBeNull()
    // The next catch-up reads the change log from where the read began, so the admission is in it.
    await app.call('sync.now', {})
    const members = (await app.call('groups.members', { accountDid: owner, groupDid })).items
    expect(members.map((m) => m.did)).toContain(person.did)
    expect((await app.call('groups.joinRequests', { accountDid: owner, groupDid })).items.map((r) => r.did)).not.toContain(person.did)
    expect((await app.call('groups.list', {})).find((g) => g.did === groupDid)?.displayName).toBe('Renamed mid-read')
  })

  it('denies a request: it leaves the queue and the person is not a member', async () => {
    const groupDid = await newGroup()
    expect((await net.as('outsider2').call('example.groups.requestJoin', { body: { group: groupDid } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    await app.call('sync.now', {})
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'joinRequest.decide', did: net.as('outsider2').did, decision: 'deny' } })
    await eventually(async () => !(await app.call('groups.joinRequests', { accountDid: owner, groupDid })).items.some((r) => r.did === net.as('outsider2').did))
    const res = await net.as('outsider2').call('example.groups.getJoinRequest', { params: { group: groupDid } })
    expect(res.body.request).toBeUndefined()
    expect((await app.call('groups.members', { accountDid: owner, groupDid }).then((p) => p.items)).some((m) => m.did === net.as('outsider2').did)).toBe(false)
  })

  it('works the moderation queue: a report shows with its count, then is resolved with a note', async () => {
    const groupDid = await seededApproval()
    const reported = net.as('member').did
    await net.as('moderator').call('example.groups.createReport', { body: { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: reported }, reasonType: 'spam' } })
    await net.as('admin').call('example.groups.createReport', { body: { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: reported }, reasonType: 'spam' } })
    await app.call('sync.now', {})
    const queue = await app.call('groups.subjects', { accountDid: owner, groupDid })
    expect(queue).toMatchObject({ total: 1, matched: 1, open: 1, escalated: 0 })
    expect(queue.items[0]).toMatchObject({ key: reported, status: 'open', reportCount: 2 })
    // One status at a time, searched by the reported DID, in the core.
    expect((await app.call('groups.subjects', { accountDid: owner, groupDid, status: 'escalated' })).matched).toBe(0)
    expect((await app.call('groups.subjects', { accountDid: owner, groupDid, status: 'open', q: reported.slice(-6).toUpperCase() })).matched).toBe(1)
    expect((await app.call('groups.list', {})).find((g) => g.did === groupDid && g.accountDid === owner)?.openSubjects).toBe(1)
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'subject.update', key: reported, subject: { did: reported }, status: 'resolved', note: 'Talked to them' } })
    await eventually(async () => (await app.call('groups.subjects', { accountDid: owner, groupDid })).total === 0)
    const resolved = await net.as('owner').call<{ subjects: { status: string }[] }>('example.groups.listSubjects', { params: { group: groupDid, status: 'resolved' } })
    expect(resolved.body.subjects).toHaveLength(1)
  })

  it('starts a new group on the host with the account as owner', async () => {
    const handle = `newgroup${Date.now().toString(36)}.groups.test`
    const created = await app.call('groups.create', { accountDid: owner, handle, displayName: 'Book club', joinPolicy: 'invite' })
    expect(created).toMatchObject({ handle, displayName: 'Book club', joinPolicy: 'invite', roles: ['owner'] })
    expect(created.did).toMatch(/^did:plc:/)
    const outsider = await net.as('outsider').call('example.groups.requestJoin', { body: { group: created.did } })
    expect(outsider.body).toMatchObject({ error: 'InviteRequired' })
  })

  it('refuses input the contract does not allow, with a clear error', async () => {
    const env = await app.raw('groups.act', { accountDid: owner, groupDid: 'nope', action: { kind: 'member.eject', did: 'x' } })
    expect(env).toMatchObject({ ok: false, error: { code: 'InvalidInput' } })
  })
})
