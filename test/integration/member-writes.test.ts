import { describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc, type XrpcResult } from '../support/local-network.js'
import type { StackAccountName } from '../../src/shared/stack-file.js'

const net = useLocalNetwork()

const ACCEPTANCE = 'example.groups.acceptance'
const RSVP = 'example.groups.rsvp'

interface Member {
  did: string
  accepted: boolean
}
interface SpaceRecord {
  uri: string
  cid: string
  value: Record<string, unknown>
}

const group = () => net.group('open').did
const membersSpace = () => `at://${group()}/space/members/self`
const calendarSpace = () => `at://${group()}/space/community.lexicon.calendar/self`
const did = (name: StackAccountName) => net.as(name).did

// A password session on the person's own PDS, as the stack's demo accounts have.
const sessions = new Map<StackAccountName, string>()
async function accessJwt(name: StackAccountName): Promise<string> {
  if (!sessions.has(name)) {
    const { handle, password } = net.as(name).account
    const res = await xrpc<{ accessJwt: string }>(net.stack.pds, 'com.atproto.server.createSession', { body: { identifier: handle, password } })
    expect(res.status).toBe(200)
    sessions.set(name, res.body.accessJwt)
  }
  return sessions.get(name)!
}

/** A call to the person's own PDS with their session: a query without `body`. */
async function onPds<T = Record<string, unknown>>(name: StackAccountName, method: string, init: { params?: Record<string, string | number | undefined>; body?: unknown }): Promise<XrpcResult<T>> {
  return xrpc<T>(net.stack.pds, method, { ...init, headers: { authorization: `Bearer ${await accessJwt(name)}` } })
}

const acceptance = (createdAt = new Date().toISOString()) => ({ $type: ACCEPTANCE, createdAt })

const putAcceptance = (name: StackAccountName, record: unknown = acceptance()) =>
  onPds<{ uri: string; cid: string }>(name, 'com.atproto.space.putRecord', {
    body: { space: membersSpace(), repo: did(name), collection: ACCEPTANCE, rkey: 'self', record },
  })

const getAcceptance = (name: StackAccountName) =>
  onPds<SpaceRecord>(name, 'com.atproto.space.getRecord', {
    params: { space: membersSpace(), repo: did(name), collection: ACCEPTANCE, rkey: 'self' },
  })

/** Whether the group's host counts `name` as accepted, as an organizer sees it. */
async function acceptedOnHost(name: StackAccountName): Promise<boolean | undefined> {
  const res = await net.as('owner').call<{ members: Member[] }>('example.groups.listMembers', { params: { group: group(), limit: 100 } })
  expect(res.status).toBe(200)
  return res.body.members.find((m) => m.did === did(name))?.accepted
}

async function changesAbout(name: StackAccountName): Promise<string[]> {
  const res = await net.as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group(), limit: 100 } })
  expect(res.status).toBe(200)
  return res.body.changes.filter((c) => c.subject === did(name)).map((c) => c.kind)
}

describe('member writes: com.atproto.space.* on the member’s own PDS', () => {
  it('stores a member’s acceptance with the CID the PDS gives the record, and the host counts it', async () => {
    expect(await acceptedOnHost('member')).toBe(false)
    const record = acceptance('2025-01-02T03:04:05.000Z')
    const res = await putAcceptance('member', record)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.uri).toBe(`${membersSpace()}/${did('member')}/${ACCEPTANCE}/self`)

    // The same record in the member's public repo gets the same CID: the CID is real.
    const inRepo = await onPds<{ cid: string }>('member', 'com.atproto.repo.putRecord', {
      body: { repo: did('member'), collection: ACCEPTANCE, rkey: 'self', record },
    })
    expect(inRepo.status).toBe(200)
    expect(res.body.cid).toBe(inRepo.body.cid)

    expect((await getAcceptance('member')).body).toEqual({ uri: res.body.uri, cid: res.body.cid, value: record })
    const listed = await onPds<{ records: SpaceRecord[] }>('member', 'com.atproto.space.listRecords', {
      params: { space: membersSpace(), repo: did('member'), collection: ACCEPTANCE },
    })
    expect(listed.body.records).toEqual([{ uri: res.body.uri, cid: res.body.cid, value: record }])

    expect(await acceptedOnHost('member')).toBe(true)
    expect(await changesAbout('member')).toContain('member.accepted')
  })

  it('overwrites on a second put: same address, one record, accepted once', async () => {
    const first = (await getAcceptance('member')).body
    const record = acceptance('2025-06-07T08:09:10.000Z')
    const res = await putAcceptance('member', record)
    expect(res.status).toBe(200)
    expect(res.body.uri).toBe(first.uri)
    expect(res.body.cid).not.toBe(first.cid)
    const listed = await onPds<{ records: SpaceRecord[] }>('member', 'com.atproto.space.listRecords', {
      params: { space: membersSpace(), repo: did('member'), collection: ACCEPTANCE },
    })
    expect(listed.body.records).toEqual([{ uri: first.uri, cid: res.body.cid, value: record }])
    expect(await acceptedOnHost('member')).toBe(true)
    expect((await changesAbout('member')).filter((k) => k === 'member.accepted')).toHaveLength(1)
  })

  it('writes and reads only the caller’s own repo', async () => {
    const put = await onPds('member', 'com.atproto.space.putRecord', {
      body: { space: membersSpace(), repo: did('owner'), collection: ACCEPTANCE, rkey: 'self', record: acceptance() },
    })
    expect(put).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    const del = await onPds('member', 'com.atproto.space.deleteRecord', {
      body: { space: membersSpace(), repo: did('owner'), collection: ACCEPTANCE, rkey: 'self' },
    })
    expect(del).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    const get = await onPds('owner', 'com.atproto.space.getRecord', {
      params: { space: membersSpace(), repo: did('member'), collection: ACCEPTANCE, rkey: 'self' },
    })
    expect(get).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    // The owner's acceptance was never written, and the member's is untouched.
    expect(await acceptedOnHost('owner')).toBe(false)
    expect((await getAcceptance('member')).status).toBe(200)
  })

  it('needs a session, and answers malformed input with InvalidRequest, never a 500', async () => {
    const body = { space: membersSpace(), repo: did('member'), collection: ACCEPTANCE, rkey: 'self', record: acceptance() }
    expect((await xrpc(net.stack.pds, 'com.atproto.space.putRecord', { body })).status).toBe(401)
    expect((await xrpc(net.stack.pds, 'com.atproto.space.putRecord', { body, headers: { authorization: 'Bearer nonsense' } })).status).toBe(400)
    for (const bad of [
      { ...body, record: { $type: RSVP, createdAt: new Date().toISOString() } }, // $type is not the collection
      { ...body, space: `at://${group()}/members/self` },
      { ...body, space: 'members' },
      { ...body, rkey: '..' },
      { ...body, collection: 'not an nsid' },
      { ...body, record: 'not an object' },
      { ...body, repo: 'alice' },
      { space: body.space, repo: body.repo, collection: ACCEPTANCE, rkey: 'self' },
    ]) {
      const res = await onPds('member', 'com.atproto.space.putRecord', { body: bad })
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.error, JSON.stringify(bad)).toBe('InvalidRequest')
    }
    const wrongMethod = await onPds('member', 'com.atproto.space.putRecord', { params: {} })
    expect(wrongMethod.status).toBe(400)
    const badCursor = await onPds('member', 'com.atproto.space.listRecords', {
      params: { space: membersSpace(), repo: did('member'), collection: ACCEPTANCE, cursor: '!!' },
    })
    expect(badCursor).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('stores an outsider’s write, which the host refuses to count, even after they join', async () => {
    const res = await putAcceptance('outsider')
    expect(res.status).toBe(200)
    expect((await getAcceptance('outsider')).body.cid).toBe(res.body.cid)
    expect(await acceptedOnHost('outsider')).toBeUndefined()

    // What the PDS announced, the host answered like this:
    const direct = await net.as('outsider').call('example.groups.notifyWrite', {
      body: { space: membersSpace(), repo: did('outsider'), collection: ACCEPTANCE, rkey: 'self', cid: res.body.cid, action: 'put' },
    })
    expect(direct).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(direct.body.message).toMatch(/not a member/)

    // Joining later does not turn the refused write into an acceptance; writing again does.
    expect((await net.as('outsider').call('example.groups.requestJoin', { body: { group: group() } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect(await acceptedOnHost('outsider')).toBe(false)
    expect((await putAcceptance('outsider')).status).toBe(200)
    expect(await acceptedOnHost('outsider')).toBe(true)
  })

  it('deleteRecord removes the acceptance, and the host no longer counts it', async () => {
    const del = { space: membersSpace(), repo: did('member'), collection: ACCEPTANCE, rkey: 'self' }
    expect(await onPds('member', 'com.atproto.space.deleteRecord', { body: del })).toMatchObject({ status: 200, body: {} })
    expect(await getAcceptance('member')).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
    expect(await acceptedOnHost('member')).toBe(false)
    expect(await changesAbout('member')).toEqual(expect.arrayContaining(['member.accepted', 'member.acceptanceWithdrawn']))
    // Deleting what is gone is not an error.
    expect((await onPds('member', 'com.atproto.space.deleteRecord', { body: del })).status).toBe(200)
    expect(await acceptedOnHost('member')).toBe(false)
  })

  it('after leaving (acceptance deleted first, as the spec says), the space no longer takes their writes', async () => {
    const del = { space: membersSpace(), repo: did('outsider'), collection: ACCEPTANCE, rkey: 'self' }
    expect((await onPds('outsider', 'com.atproto.space.deleteRecord', { body: del })).status).toBe(200)
    expect(await acceptedOnHost('outsider')).toBe(false)
    expect(await net.as('outsider').call('example.groups.leaveGroup', { body: { group: group() } })).toMatchObject({ status: 200 })

    const res = await putAcceptance('outsider')
    expect(res.status).toBe(200)
    const direct = await net.as('outsider').call('example.groups.notifyWrite', {
      body: { ...del, cid: res.body.cid, action: 'put' },
    })
    expect(direct).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await acceptedOnHost('outsider')).toBeUndefined()
    expect((await net.as('outsider').call('example.groups.requestJoin', { body: { group: group() } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect(await acceptedOnHost('outsider')).toBe(false)
  })

  it('keeps one RSVP per event: the rkey is the event’s, a second put overwrites', async () => {
    const eventRkey = '3kabcdefgh22x'
    const subject = `${calendarSpace()}/${group()}/community.lexicon.calendar.event/${eventRkey}`
    const put = (status: string) =>
      onPds<{ uri: string; cid: string }>('member', 'com.atproto.space.putRecord', {
        body: { space: calendarSpace(), repo: did('member'), collection: RSVP, rkey: eventRkey, record: { $type: RSVP, subject, status, createdAt: new Date().toISOString() } },
      })
    const first = await put('going')
    const second = await put('notgoing')
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.body.uri).toBe(first.body.uri)
    expect(first.body.uri).toBe(`${calendarSpace()}/${did('member')}/${RSVP}/${eventRkey}`)
    const listed = await onPds<{ records: SpaceRecord[] }>('member', 'com.atproto.space.listRecords', {
      params: { space: calendarSpace(), repo: did('member'), collection: RSVP },
    })
    expect(listed.body.records).toHaveLength(1)
    expect(listed.body.records[0]).toMatchObject({ uri: first.body.uri, cid: second.body.cid, value: { status: 'notgoing' } })
    // An RSVP is not an acceptance.
    expect(await acceptedOnHost('member')).toBe(false)
  })

  it('lists page by page with an opaque cursor', async () => {
    const put = (rkey: string) =>
      onPds('admin', 'com.atproto.space.putRecord', {
        body: { space: calendarSpace(), repo: did('admin'), collection: RSVP, rkey, record: { $type: RSVP, subject: 'at://x', status: 'going' } },
      })
    for (const rkey of ['a1', 'a2', 'a3']) expect((await put(rkey)).status).toBe(200)
    const seen: string[] = []
    let cursor: string | undefined
    for (let i = 0; i < 5; i++) {
      const res = await onPds<{ records: SpaceRecord[]; cursor?: string }>('admin', 'com.atproto.space.listRecords', {
        params: { space: calendarSpace(), repo: did('admin'), collection: RSVP, limit: 2, cursor },
      })
      expect(res.status).toBe(200)
      seen.push(...res.body.records.map((r) => r.uri.split('/').pop()!))
      cursor = res.body.cursor
      if (!cursor) break
    }
    expect(seen).toEqual(['a3', 'a2', 'a1'])
  })
})

describe('example.groups.notifyWrite on the host', () => {
  const announce = (name: StackAccountName, body: Record<string, unknown>) =>
    net.as(name).call<{ accepted?: boolean }>('example.groups.notifyWrite', {
      body: { space: membersSpace(), repo: did(name), collection: ACCEPTANCE, rkey: 'self', action: 'put', ...body },
    })

  it('takes announcements only for the token issuer’s own repo', async () => {
    expect(await announce('member', { repo: did('owner') })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await acceptedOnHost('owner')).toBe(false)
  })

  it('answers a member whether the write holds on their PDS, and refuses bad input and bad auth', async () => {
    // Announced, never written: the host reads the member's PDS and counts nothing.
    expect(await announce('moderator', { collection: RSVP, rkey: 'whatever' })).toMatchObject({ status: 200, body: { accepted: false } })
    expect(await announce('moderator', { space: 'at://did:plc:aaaaaaaaaaaaaaaaaaaaaaaa/space/members/self' })).toMatchObject({
      status: 400,
      body: { error: 'InvalidRequest', message: 'unknown group' },
    })
    expect(await announce('moderator', { space: 'members' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await announce('moderator', { action: 'upsert' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    const unauthenticated = await xrpc(net.stack.host.url, 'example.groups.notifyWrite', {
      body: { space: membersSpace(), repo: did('moderator'), collection: ACCEPTANCE, rkey: 'self', action: 'put' },
    })
    expect(unauthenticated.status).toBe(401)
    // A token for another method does not do.
    const token = await net.as('moderator').serviceAuth('example.groups.requestJoin')
    const wrongLxm = await xrpc(net.stack.host.url, 'example.groups.notifyWrite', {
      body: { space: membersSpace(), repo: did('moderator'), collection: ACCEPTANCE, rkey: 'self', action: 'put' },
      headers: { authorization: `Bearer ${token}` },
    })
    expect(wrongLxm.status).toBe(401)
    expect(await acceptedOnHost('moderator')).toBe(false)
  })
})
