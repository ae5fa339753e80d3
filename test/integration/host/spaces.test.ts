import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()

const INDEX = 'example.groups.space'
const ALL_ROLES = ['admin', 'member', 'moderator', 'owner']
const group = () => net.group('open').did
const membersSpace = () => `at://${group()}/space/members/self`
const metaSpace = () => `at://${group()}/space/meta/self`
const calendar = () => `at://${group()}/space/community.lexicon.calendar/self`

interface IndexRecord {
  uri: string
  cid: string
  value: { $type: string; type: string; skey: string; name: string; readableBy: string[]; credentialScopes: { role: string; scopes: string[] }[]; createdAt: string }
}

const calendarSpec = () => ({
  group: group(),
  type: 'community.lexicon.calendar',
  skey: 'self',
  name: 'Calendar',
  readableBy: ALL_ROLES,
  credentialScopes: [
    { role: 'owner', scopes: ['*'] },
    { role: 'admin', scopes: ['community.lexicon.calendar.event', 'example.groups.eventImage'] },
  ],
})

/** The group's space index, read as any reader would: listRecords in the members space. */
async function spaceIndex(as: 'member' | 'owner' = 'member') {
  const res = await net.as(as).call<{ records: IndexRecord[] }>('com.atproto.space.listRecords', {
    params: { space: membersSpace(), repo: group(), collection: INDEX },
  })
  expect(res.status).toBe(200)
  return res.body.records
}

const indexUri = (rkey: string) => `${membersSpace()}/${group()}/${INDEX}/${rkey}`

describe('well-known spaces', () => {
  it('every group has meta and members, listed in its space index and readable by every role', async () => {
    const records = await spaceIndex()
    expect(records.map((r) => r.uri).sort()).toEqual([indexUri('members:self'), indexUri('meta:self')])
    for (const r of records) {
      expect(r.value).toMatchObject({ $type: INDEX, skey: 'self', readableBy: ALL_ROLES, credentialScopes: [] })
      expect(r.cid).toMatch(/^bafyrei/)
    }
    // The owner holds only `owner`, not `member`, and still reads them.
    expect((await spaceIndex('owner')).length).toBe(2)
    for (const name of ['approval', 'invite'] as const) {
      const res = await net.as('member').call<{ records: IndexRecord[] }>('com.atproto.space.listRecords', {
        params: { space: `at://${net.group(name).did}/space/members/self`, repo: net.group(name).did, collection: INDEX },
      })
      expect(res.body.records.map((r) => r.value.type).sort()).toEqual(['members', 'meta'])
    }
  })

  it('are not readable by people outside the group', async () => {
    const res = await net.as('outsider').call('com.atproto.space.listRecords', {
      params: { space: membersSpace(), repo: group(), collection: INDEX },
    })
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('cannot be created again: their types are reserved', async () => {
    for (const type of ['members', 'meta']) {
      for (const skey of ['self', 'other']) {
        const res = await net.as('owner').call('example.groups.createSpace', { body: { ...calendarSpec(), type, skey } })
        expect(res, `${type}/${skey}`).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
      }
    }
  })

  it('cannot be updated or deleted: WellKnownSpace', async () => {
    for (const space of [membersSpace(), metaSpace()]) {
      const update = await net.as('owner').call('example.groups.updateSpace', { body: { group: group(), space, name: 'Renamed' } })
      expect(update).toMatchObject({ status: 400, body: { error: 'WellKnownSpace' } })
      const del = await net.as('owner').call('example.groups.deleteSpace', { body: { group: group(), space } })
      expect(del).toMatchObject({ status: 400, body: { error: 'WellKnownSpace' } })
    }
    expect((await spaceIndex()).find((r) => r.value.type === 'meta')?.value.name).not.toBe('Renamed')
  })
})

describe('example.groups.createSpace', () => {
  it('needs space.create: members and moderators are refused', async () => {
    for (const who of ['member', 'moderator', 'outsider'] as const) {
      const res = await net.as(who).call('example.groups.createSpace', { body: calendarSpec() })
      expect(res, who).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    }
  })

  it('creates the space and adds it to the space index', async () => {
    const res = await net.as('admin').call('example.groups.createSpace', { body: calendarSpec() })
    expect(res).toEqual(expect.objectContaining({ status: 200, body: { uri: calendar(), seq: expect.any(Number) } }))

    const entry = (await spaceIndex()).find((r) => r.uri === indexUri('community.lexicon.calendar:self'))
    expect(entry?.value).toMatchObject({
      $type: INDEX,
      type: 'community.lexicon.calendar',
      skey: 'self',
      name: 'Calendar',
      readableBy: ALL_ROLES,
      credentialScopes: calendarSpec().credentialScopes,
    })
    const one = await net.as('member').call('com.atproto.space.getRecord', {
      params: { space: membersSpace(), repo: group(), collection: INDEX, rkey: 'community.lexicon.calendar:self' },
    })
    expect(one).toMatchObject({ status: 200, body: { uri: entry!.uri, cid: entry!.cid, value: entry!.value } })

    const changes = await net.as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })
    expect(changes.body.changes).toContainEqual(expect.objectContaining({ kind: 'space.created', subject: calendar() }))
  })

  it('refuses a second space of the same type and skey, leaving one index record', async () => {
    const res = await net.as('owner').call('example.groups.createSpace', { body: { ...calendarSpec(), name: 'Another calendar' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    const entries = (await spaceIndex()).filter((r) => r.value.type === 'community.lexicon.calendar')
    expect(entries.map((e) => e.value.name)).toEqual(['Calendar'])
  })

  it('refuses malformed access records and addresses with InvalidRequest, never a 500', async () => {
    const bad = [
      { readableBy: ['member', 'nobody'] },
      { credentialScopes: [{ role: 'ghost', scopes: ['*'] }] },
      { credentialScopes: [{ role: 'admin', scopes: ['*', 'community.lexicon.calendar.event'] }] },
      { credentialScopes: [{ role: 'admin', scopes: ['not a collection'] }] },
      { credentialScopes: [{ role: 'admin', scopes: [] }, { role: 'admin', scopes: ['*'] }] },
      { type: 'has spaces' },
      { type: 'community.lexicon.calendar', skey: '..' },
      { skey: 'a/b' },
      { name: '   ' },
      { group: 'not-a-did' },
      { readableBy: 'member' },
    ]
    for (const patch of bad) {
      const res = await net.as('owner').call('example.groups.createSpace', { body: { ...calendarSpec(), skey: 'other', ...patch } })
      expect(res.status, JSON.stringify(patch)).toBe(400)
      expect(res.body.error, JSON.stringify(patch)).toBe('InvalidRequest')
    }
    expect((await spaceIndex()).length).toBe(3)
  })
})

describe('example.groups.updateSpace', () => {
  it('needs space.configure', async () => {
    const res = await net.as('member').call('example.groups.updateSpace', { body: { group: group(), space: calendar(), name: 'Mine' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('changes the name and access record, and the index record follows', async () => {
    const before = (await spaceIndex()).find((r) => r.value.type === 'community.lexicon.calendar')!
    const credentialScopes = [{ role: 'admin', scopes: ['community.lexicon.calendar.event'] }]
    const res = await net.as('admin').call('example.groups.updateSpace', {
      body: { group: group(), space: calendar(), name: 'Events', credentialScopes },
    })
    expect(res).toMatchObject({ status: 200, body: {} })
    const after = (await spaceIndex()).find((r) => r.value.type === 'community.lexicon.calendar')!
    expect(after.value).toMatchObject({ name: 'Events', credentialScopes, readableBy: ALL_ROLES, createdAt: before.value.createdAt })
    expect(after.cid).not.toBe(before.cid)
  })

  it('answers SpaceNotFound for a space the group does not have', async () => {
    const res = await net.as('owner').call('example.groups.updateSpace', {
      body: { group: group(), space: `at://${group()}/space/community.lexicon.calendar/nope`, name: 'x' },
    })
    expect(res).toMatchObject({ status: 400, body: { error: 'SpaceNotFound' } })
  })

  it('refuses a space address of another group', async () => {
    const res = await net.as('owner').call('example.groups.updateSpace', {
      body: { group: group(), space: `at://${net.group('approval').did}/space/community.lexicon.calendar/self`, name: 'x' },
    })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })
})

describe('reading spaces', () => {
  it('follows readableBy: a space for admins only is closed to members', async () => {
    const space = `at://${group()}/space/example.notes/admins`
    const made = await net.as('owner').call('example.groups.createSpace', {
      body: { group: group(), type: 'example.notes', skey: 'admins', name: 'Admin notes', readableBy: ['owner', 'admin'], credentialScopes: [] },
    })
    expect(made.body).toEqual({ uri: space, seq: expect.any(Number) })
    const params = { space, repo: group(), collection: 'community.lexicon.calendar.event' }
    expect(await net.as('admin').call('com.atproto.space.listRecords', { params })).toMatchObject({ status: 200, body: { records: [] } })
    expect(await net.as('member').call('com.atproto.space.listRecords', { params })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('answers SpaceNotFound for a space the group does not have, RecordNotFound for a missing record', async () => {
    const missing = await net.as('member').call('com.atproto.space.listRecords', {
      params: { space: `at://${group()}/space/example.nothing/self`, repo: group(), collection: INDEX },
    })
    expect(missing).toMatchObject({ status: 400, body: { error: 'SpaceNotFound' } })
    const record = await net.as('member').call('com.atproto.space.getRecord', {
      params: { space: membersSpace(), repo: group(), collection: INDEX, rkey: 'example.nothing:self' },
    })
    expect(record).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
  })
})

describe('example.groups.deleteSpace', () => {
  it('needs space.delete, which admins do not have', async () => {
    const res = await net.as('admin').call('example.groups.deleteSpace', { body: { group: group(), space: calendar() } })
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('removes the space and its index record', async () => {
    const res = await net.as('owner').call('example.groups.deleteSpace', { body: { group: group(), space: calendar() } })
    expect(res).toMatchObject({ status: 200, body: {} })
    expect((await spaceIndex()).map((r) => r.value.type)).not.toContain('community.lexicon.calendar')
    const read = await net.as('member').call('com.atproto.space.listRecords', {
      params: { space: calendar(), repo: group(), collection: 'community.lexicon.calendar.event' },
    })
    expect(read).toMatchObject({ status: 400, body: { error: 'SpaceNotFound' } })
  })

  it('answers SpaceNotFound the second time', async () => {
    const res = await net.as('owner').call('example.groups.deleteSpace', { body: { group: group(), space: calendar() } })
    expect(res).toMatchObject({ status: 400, body: { error: 'SpaceNotFound' } })
  })

  it('frees the type and skey for a new space', async () => {
    const res = await net.as('owner').call('example.groups.createSpace', { body: calendarSpec() })
    expect(res).toMatchObject({ status: 200, body: { uri: calendar() } })
    expect((await spaceIndex()).filter((r) => r.value.type === 'community.lexicon.calendar')).toHaveLength(1)
  })
})
