import { afterEach, describe, expect, it } from 'vitest'
import { Lexicons, type LexiconDoc } from '@atproto/lexicon'
import { readLexicons } from '@node/lexicons.js'
import { useLocalNetwork } from '../../support/local-network.js'
import { FIREHOSE, StreamClient, SUBSCRIBE, type ChangeFrame } from '../../support/change-stream.js'

/**
 * example.groups.subscribeChanges (issue 23) against the real local network: a client
 * holding one WebSocket, with service auth minted by its PDS, gets each group's change
 * log as it grows, filtered as listChanges filters it, resumable from its cursor.
 */
const net = useLocalNetwork({ hostStreamLimits: 'heartbeat=1' })
const as = net.caller
const open = () => net.group('open').did
const approval = () => net.group('approval').did
const invite = () => net.group('invite').did

interface Entry {
  seq: number
  kind: string
  subject?: string
  createdAt: string
}
async function log(by: Parameters<typeof net.as>[0], group: string, cursor?: string): Promise<{ changes: Entry[]; cursor: string }> {
  const res = await as(by).call<{ changes: Entry[]; cursor: string }>('example.groups.listChanges', { params: { group, cursor, limit: 100 } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}
const configure = async (group: string, description: string) => {
  const res = await as('owner').call('example.groups.configureGroup', { body: { group, description } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}
const of = (frames: ChangeFrame[], group: string) => frames.filter((f) => f.group === group).map((f) => f.change)

const streams: StreamClient[] = []
const stream = async (name: Parameters<typeof net.as>[0], params: { cursor?: string; groups?: string[] } = {}) => {
  const s = await StreamClient.open(as(name), params)
  streams.push(s)
  return s
}
afterEach(() => {
  for (const s of streams.splice(0)) s.terminate()
})

describe('example.groups.subscribeChanges', () => {
  it('sends each change as it happens, exactly the entry listChanges gives, with its group and a cursor', async () => {
    const start = { admin: (await log('admin', approval())).cursor, member: (await log('member', approval())).cursor }
    const admin = await stream('admin')
    const member = await stream('member')

    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: approval(), message: 'hi' } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    const created = await admin.change((c) => c.group === approval() && c.change.kind === 'joinRequest.created')
    const listed = (await log('admin', approval(), start.admin)).changes
    expect(listed).toContainEqual(created.change)
    // The cursor is also a listChanges cursor for the group: the log after it starts after the entry.
    expect((await log('admin', approval(), created.cursor)).changes.map((c) => c.seq)).not.toContain(created.change.seq)

    expect((await as('admin').call('example.groups.admitMember', { body: { group: approval(), did: as('outsider').did, decision: 'admit' } })).status).toBe(200)
    await member.change((c) => c.group === approval() && c.change.kind === 'member.joined' && c.change.subject === as('outsider').did)
    await admin.change((c) => c.group === approval() && c.change.kind === 'member.joined' && c.change.subject === as('outsider').did)
    // Each sees what listChanges shows them, no more: the member not the join request.
    expect(of(member.changes(), approval())).toEqual((await log('member', approval(), start.member)).changes)
    expect(of(admin.changes(), approval())).toEqual((await log('admin', approval(), start.admin)).changes)
    expect(of(member.changes(), approval()).map((c) => c.kind)).not.toContain('joinRequest.created')
    // Every frame is a message of the lexicon.
    const lex = new Lexicons(readLexicons() as unknown as LexiconDoc[])
    for (const frame of [...admin.frames, ...member.frames]) {
      expect(frame.op).toBe(1)
      expect(() => lex.assertValidXrpcMessage(SUBSCRIBE, { $type: `${SUBSCRIBE}${frame.t}`, ...frame.body })).not.toThrow()
    }
  })

  it('resumes from a cursor: what happened while disconnected arrives, nothing twice, then live', async () => {
    const first = await stream('owner', { groups: [open()] })
    await configure(open(), 'before the break')
    const seen = await first.change((c) => c.change.kind === 'group.configured')
    first.close()
    await first.closed

    // While nobody listens: three changes.
    await configure(open(), 'during the break 1')
    expect((await as('admin').call('example.groups.createInvite', { body: { group: open(), invitee: as('outsider2').did } })).status).toBe(200)
    await configure(open(), 'during the break 2')

    const again = await stream('owner', { groups: [open()], cursor: seen.cursor })
    await again.until((frames) => frames.length >= 3, 5_000, 'the three missed changes')
    await configure(open(), 'after the break')
    await again.until((frames) => frames.length >= 4, 5_000, 'the live change')
    const listed = (await log('owner', open(), seen.cursor)).changes
    expect(listed).toHaveLength(4)
    expect(again.changes().map((c) => c.change)).toEqual(listed)
    expect(again.changes().map((c) => c.group)).toEqual(listed.map(() => open()))
  })

  it('a moderator whose role is revoked stops receiving reports at that entry', async () => {
    const moderator = await stream('moderator')
    const report = (did: string) =>
      as('member').call('example.groups.createReport', { body: { group: open(), subject: { $type: 'example.groups.defs#subjectAccount', did }, reasonType: 'spam' } })
    expect((await report(as('outsider').did)).status).toBe(200)
    await moderator.change((c) => c.group === open() && c.change.kind === 'subject.reported' && c.change.subject === as('outsider').did)

    expect((await as('owner').call('example.groups.revokeRole', { body: { group: open(), did: as('moderator').did, role: 'moderator' } })).status).toBe(200)
    const revoked = await moderator.change((c) => c.group === open() && c.change.kind === 'member.roleRevoked')
    expect((await report(as('outsider2').did)).status).toBe(200)
    await configure(open(), 'after the revoke')
    // In log order: had the report been sent, it would have come before this.
    await moderator.change((c) => c.group === open() && c.change.kind === 'group.configured' && c.change.seq > revoked.change.seq)
    expect(moderator.changes().filter((c) => c.change.seq > revoked.change.seq).map((c) => c.change.kind)).toEqual(['group.configured'])
    // Still a moderator elsewhere: reports there still come.
    expect(
      (await as('member').call('example.groups.createReport', { body: { group: approval(), subject: { $type: 'example.groups.defs#subjectAccount', did: as('outsider2').did }, reasonType: 'spam' } })).status,
    ).toBe(200)
    await moderator.change((c) => c.group === approval() && c.change.kind === 'subject.reported')
    // Put back for the tests after.
    expect((await as('owner').call('example.groups.grantRole', { body: { group: open(), did: as('moderator').did, role: 'moderator' } })).status).toBe(200)
  })

  it('an ejected member is told of their own ejection, then stops receiving the group’s changes at once', async () => {
    const member = await stream('member')
    await configure(invite(), 'before the eject')
    await member.change((c) => c.group === invite() && c.change.kind === 'group.configured')
    const before = member.changes().length
    expect((await as('owner').call('example.groups.ejectMember', { body: { group: invite(), did: as('member').did } })).status).toBe(200)
    await configure(invite(), 'after the eject')
    await configure(approval(), 'marker')
    await member.change((c) => c.group === approval() && c.change.kind === 'group.configured')
    // Their own ejection is the last they hear of the group: an app learns it is out
    // (and reads the group again) without waiting for its next full check.
    expect(member.changes().slice(before).map((c) => [c.group, c.change.kind, c.change.subject ?? null])).toEqual([
      [invite(), 'member.ejected', as('member').did],
      [approval(), 'group.configured', approval()],
    ])
  })

  it('follows a group the caller joins while connected', async () => {
    const newcomer = await stream('outsider2')
    expect((await as('outsider2').call('example.groups.requestJoin', { body: { group: open() } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    await newcomer.change((c) => c.group === open() && c.change.kind === 'member.joined' && c.change.subject === as('outsider2').did)
    await configure(open(), 'welcome')
    await newcomer.change((c) => c.group === open() && c.change.kind === 'group.configured')
  })

  it('follows a group the caller makes while connected, and no one else’s', async () => {
    const maker = await stream('outsider2')
    const other = await stream('member')
    const made = await as('outsider2').call<{ did: string }>('example.groups.createGroup', { body: { handle: `made-${Date.now().toString(36)}.groups.test`, joinPolicy: 'open' } })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    await maker.change((c) => c.group === made.body.did && c.change.kind === 'group.created')
    await configure(open(), 'after the new group')
    await other.change((c) => c.group === open() && c.change.kind === 'group.configured' && c.change.seq > 0)
    expect(other.frames.filter((f) => f.body.group === made.body.did)).toEqual([])
  })

  it('refuses what it cannot serve with an error frame, then closes', async () => {
    const refusedWith = async (name: Parameters<typeof net.as>[0], params: { cursor?: string; groups?: string[]; raw?: string }) => {
      const s = await StreamClient.connect(net.stack.host.url, await as(name).serviceAuth(SUBSCRIBE), params)
      if (!(s instanceof StreamClient)) throw new Error(`refused at the upgrade: ${s.status}`)
      streams.push(s)
      const closed = await s.closed
      expect(s.frames).toHaveLength(1)
      expect(s.frames[0]!.op).toBe(-1)
      return { ...s.frames[0]!.body, code: closed.code }
    }
    expect(await refusedWith('outsider', { groups: [open(), invite()] })).toMatchObject({ error: 'Forbidden', code: 1008 })
    expect(await refusedWith('member', { cursor: Buffer.from('99999999999').toString('base64url') })).toMatchObject({ error: 'FutureCursor' })
    expect(await refusedWith('member', { cursor: 'not a cursor!' })).toMatchObject({ error: 'InvalidRequest' })
    expect(await refusedWith('member', { groups: ['did:plc:aaaaaaaaaaaaaaaaaaaaaaaa'] })).toMatchObject({ error: 'InvalidRequest' })
  })

  it('refuses parameters its lexicon does not allow on the upgrade, as any query', async () => {
    const token = await as('member').serviceAuth(SUBSCRIBE)
    expect(await StreamClient.connect(net.stack.host.url, token, { groups: ['not-a-did'] })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await StreamClient.connect(net.stack.host.url, token, { raw: '__proto__=1' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    const many = Array.from({ length: 101 }, (_, i) => `groups=did:plc:${String(i).padStart(24, 'a')}`).join('&')
    expect(await StreamClient.connect(net.stack.host.url, token, { raw: many })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('answers a plain HTTP request (no upgrade) with InvalidRequest', async () => {
    const res = await as('member').call(SUBSCRIBE)
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('needs service auth for this method on the upgrade request', async () => {
    const none = await StreamClient.connect(net.stack.host.url, undefined)
    expect(none).toMatchObject({ status: 401, body: { error: 'AuthMissing' } })
    const other = await StreamClient.connect(net.stack.host.url, await as('member').serviceAuth('example.groups.listChanges'))
    expect(other).toMatchObject({ status: 401, body: { error: 'BadJwtLexiconMethod' } })
  })

  it('pings the client while nothing happens', async () => {
    const idle = await stream('admin', { groups: [invite()] })
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    expect(idle.pings).toBeGreaterThanOrEqual(1)
    expect(idle.frames).toEqual([])
  })

  it('pings a public firehose stream too, and sends it the commits made while it is open (one reader for every stream)', async () => {
    const opened = await Promise.all([1, 2, 3].map(() => StreamClient.connect(net.stack.host.url, undefined, { nsid: FIREHOSE })))
    const firehoses = opened.map((s) => {
      if (!(s instanceof StreamClient)) throw new Error(`refused: ${s.status} ${JSON.stringify(s.body)}`)
      streams.push(s)
      return s
    })
    // A new description is written to the group's public profile record: a commit.
    await configure(open(), `firehose ${Date.now()}`)
    for (const s of firehoses) await s.until((frames) => frames.some((f) => f.t === '#commit' && f.body.repo === open()), 5_000, 'the commit')
    await expect.poll(() => Math.min(...firehoses.map((s) => s.pings)), { timeout: 4_000 }).toBeGreaterThan(0)
  })
})
