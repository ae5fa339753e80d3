import http from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { createServiceJwt } from '@atproto/xrpc-server'
import { Secp256k1Keypair } from '@atproto/crypto'
import { useLocalNetwork, xrpc } from '../../support/local-network.js'
import { MemberPds } from '../../support/member-pds.js'
import { fillMemberRecords } from '../../support/host-db.js'
import { mintControlledDid, mintForeignGroup } from '../../support/plc-identity.js'
import { GROUPS_SERVICE_ID, GROUPS_SERVICE_TYPE, mintPlcDid } from '../../../src/host/identity/plc.js'
import { MAX_MEMBER_RECORDS_PER_SPACE, MAX_MEMBER_RECORD_BYTES_PER_SPACE } from '../../../src/host/spaces/member-record-bounds.js'
import { closeServer, listenOn } from '../../../src/node/listen.js'
import { freePort } from '../../../src/node/free-port.js'
import type { StackAccountName, StackGroupName } from '../../../src/shared/stack-file.js'

/**
 * Members' records, decisions 6.1: the host counts and serves only what it read back
 * from the member's own PDS, and the PDS lets only the space's real host read them or
 * hear about writes. One `describe` per finding of issue 13.
 */
const net = useLocalNetwork()
const pds = new MemberPds(() => net.stack)

const ACCEPTANCE = 'example.groups.acceptance'
const RSVP = 'example.groups.rsvp'
const EVENT = 'community.lexicon.calendar.event'
const SPACE_GET_RECORD = 'com.atproto.space.getRecord'

interface SpaceRecord {
  uri: string
  cid: string
  value: Record<string, unknown>
}

const groupDid = (g: StackGroupName) => net.group(g).did
const membersSpace = (g: StackGroupName) => `at://${groupDid(g)}/space/members/self`
const calendarSpace = (g: StackGroupName) => `at://${groupDid(g)}/space/community.lexicon.calendar/self`

async function acceptedOnHost(g: StackGroupName, name: StackAccountName): Promise<boolean | undefined> {
  const res = await net.as('owner').call<{ members: { did: string; accepted: boolean }[] }>('example.groups.listMembers', { params: { group: groupDid(g), limit: 100 } })
  expect(res.status).toBe(200)
  return res.body.members.find((m) => m.did === pds.did(name))?.accepted
}

async function changes(g: StackGroupName): Promise<{ seq?: number; kind: string; subject?: string }[]> {
  const res = await net.as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: groupDid(g), limit: 100 } })
  expect(res.status).toBe(200)
  return res.body.changes
}

/** What a member's PDS (or anyone holding the member's service auth) tells the host. */
const announce = (name: StackAccountName, w: { space: string; collection: string; rkey: string; action: 'put' | 'delete'; cid?: string }) =>
  net.as(name).call<{ accepted?: boolean }>('example.groups.notifyWrite', { body: { ...w, repo: pds.did(name) } })

/** A member's records of one collection in a space, as `reader` gets them from the host. */
const listOnHost = (reader: StackAccountName, space: string, repo: StackAccountName, collection: string) =>
  net.as(reader).call<{ records: SpaceRecord[] }>('com.atproto.space.listRecords', { params: { space, repo: pds.did(repo), collection } })

const getOnHost = (reader: StackAccountName, space: string, repo: StackAccountName, collection: string, rkey: string) =>
  net.as(reader).call<SpaceRecord>('com.atproto.space.getRecord', { params: { space, repo: pds.did(repo), collection, rkey } })

describe('finding: a notifyWrite for an acceptance never written was counted', () => {
  const acceptance = { space: '', collection: ACCEPTANCE, rkey: 'self' }
  const members = () => ({ ...acceptance, space: membersSpace('open') })

  it('does not count an acceptance the member’s PDS does not hold, whatever the announcement says', async () => {
    expect(await acceptedOnHost('open', 'member')).toBe(false)
    const madeUp = 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm'
    expect(await announce('member', { ...members(), action: 'put' })).toMatchObject({ status: 200, body: { accepted: false } })
    expect(await announce('member', { ...members(), action: 'put', cid: madeUp })).toMatchObject({ status: 200, body: { accepted: false } })
    expect(await acceptedOnHost('open', 'member')).toBe(false)
    expect(await getOnHost('owner', members().space, 'member', ACCEPTANCE, 'self')).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
    expect((await changes('open')).filter((c) => c.subject === pds.did('member')).map((c) => c.kind)).not.toContain('member.accepted')
  })

  it('counts it once written for real, keeps the PDS’s copy, and takes the same announcement again without a trace', async () => {
    const record = { $type: ACCEPTANCE, createdAt: '2026-01-02T03:04:05.000Z' }
    const put = await pds.put('member', { ...members(), record })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(await acceptedOnHost('open', 'member')).toBe(true)
    const kept = await getOnHost('owner', members().space, 'member', ACCEPTANCE, 'self')
    expect(kept).toMatchObject({ status: 200, body: { uri: put.body.uri, cid: put.body.cid, value: record } })

    const before = await changes('open')
    for (let i = 0; i < 3; i++) {
      expect(await announce('member', { ...members(), action: 'put', cid: put.body.cid })).toMatchObject({ status: 200, body: { accepted: true } })
    }
    expect(await changes('open')).toEqual(before)
    expect((await getOnHost('owner', members().space, 'member', ACCEPTANCE, 'self')).body).toEqual(kept.body)
    expect(before.filter((c) => c.subject === pds.did('member') && c.kind === 'member.accepted')).toHaveLength(1)
    expect(before.filter((c) => c.subject === put.body.uri && c.kind === 'record.created')).toHaveLength(1)
  })

  it('follows a delete only once the record is gone from the member’s PDS', async () => {
    // Announced, not done: the acceptance is still on the PDS, so it still counts.
    expect(await announce('member', { ...members(), action: 'delete' })).toMatchObject({ status: 200, body: { accepted: false } })
    expect(await acceptedOnHost('open', 'member')).toBe(true)
    expect((await getOnHost('owner', members().space, 'member', ACCEPTANCE, 'self')).status).toBe(200)

    expect((await pds.delete('member', members())).status).toBe(200)
    expect(await acceptedOnHost('open', 'member')).toBe(false)
    expect(await getOnHost('owner', members().space, 'member', ACCEPTANCE, 'self')).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
    const kinds = (await changes('open')).filter((c) => c.subject === pds.did('member')).map((c) => c.kind)
    expect(kinds.filter((k) => k.startsWith('member.accept'))).toEqual(['member.accepted', 'member.acceptanceWithdrawn'])
    // Announcing the delete again changes nothing.
    const before = await changes('open')
    expect(await announce('member', { ...members(), action: 'delete' })).toMatchObject({ status: 200, body: { accepted: true } })
    expect(await changes('open')).toEqual(before)
  })
})

describe('the host counts what checks out, not what a PDS says', () => {
  const seen: { url: string; token: Record<string, unknown> }[] = []
  let served: Record<string, unknown> = {}
  let fake: http.Server | undefined
  afterAll(() => closeServer(fake))

  it('refuses a record its PDS serves under a CID that is not its content’s, and counts the same record under its own', async () => {
    // A member whose DID document names a PDS the test plays.
    fake = http.createServer((req, res) => {
      const jwt = (req.headers.authorization ?? '').replace(/^Bearer /, '')
      seen.push({ url: req.url ?? '', token: JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString() || '{}') as Record<string, unknown> })
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(served))
    })
    const port = await freePort()
    await listenOn(fake, port)
    const key = await Secp256k1Keypair.create({ exportable: true })
    const did = await mintPlcDid({ plcUrl: net.stack.plc, rotationKey: key, signingKey: key, services: { atproto_pds: { type: 'AtprotoPersonalDataServer', endpoint: `http://127.0.0.1:${port}` } } })
    const asDid = async (method: string, body: unknown) => {
      const token = await createServiceJwt({ iss: did as `did:${string}:${string}`, aud: net.stack.host.aud as `did:${string}:${string}`, lxm: method, keypair: key })
      return xrpc<{ accepted?: boolean; status?: string; message?: string }>(net.stack.host.url, method, { body, headers: { authorization: `Bearer ${token}` } })
    }
    expect((await asDid('example.groups.requestJoin', { group: groupDid('open') })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    const accepted = async () => {
      const res = await net.as('owner').call<{ members: { did: string; accepted: boolean }[] }>('example.groups.listMembers', { params: { group: groupDid('open'), q: did } })
      return res.body.members.find((m) => m.did === did)?.accepted
    }

    // The real PDS gives the CIDs: one of this record, one of another.
    const record = { $type: ACCEPTANCE, createdAt: '2026-03-04T05:06:07.000Z' }
    const elsewhere = { space: membersSpace('invite'), collection: ACCEPTANCE, rkey: 'self' }
    const own = (await pds.put('outsider2', { ...elsewhere, record })).body.cid
    const other = (await pds.put('outsider2', { ...elsewhere, record: { ...record, createdAt: '2026-03-04T05:06:08.000Z' } })).body.cid
    expect(own).not.toBe(other)

    const announcement = { space: membersSpace('open'), repo: did, collection: ACCEPTANCE, rkey: 'self', action: 'put', cid: other }
    served = { uri: `${membersSpace('open')}/${did}/${ACCEPTANCE}/self`, cid: other, value: record }
    const refused = await asDid('example.groups.notifyWrite', announcement)
    expect(refused).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(refused.body.message).toMatch(/CID/)
    expect(await accepted()).toBe(false)

    served = { ...served, cid: own }
    expect(await asDid('example.groups.notifyWrite', { ...announcement, cid: own })).toMatchObject({ status: 200, body: { accepted: true } })
    expect(await accepted()).toBe(true)

    // What the host sent the member's PDS: its own service auth, for that member's PDS only.
    expect(seen.at(-1)!.url).toMatch(/^\/xrpc\/com\.atproto\.space\.getRecord\?/)
    expect(seen.at(-1)!.token).toMatchObject({ iss: net.stack.host.serviceDid, aud: `${did}#atproto_pds`, lxm: SPACE_GET_RECORD })
  })
})

describe('finding: an organizer could not read the RSVPs members write into the calendar space', () => {
  const g: StackGroupName = 'approval'
  const eventRkey = '3kabcdefgh22x'
  const rsvp = (status: string) => ({
    $type: RSVP,
    subject: `${calendarSpace(g)}/${groupDid(g)}/${EVENT}/${eventRkey}`,
    status,
    createdAt: new Date().toISOString(),
  })
  const write = (name: StackAccountName, status: string) => pds.put(name, { space: calendarSpace(g), collection: RSVP, rkey: eventRkey, record: rsvp(status) })

  it('lists a member’s RSVP to an organizer, with the CID and value the member’s PDS holds', async () => {
    // A calendar space the moderator's role cannot read.
    const created = await net.as('owner').call('example.groups.createSpace', {
      body: { group: groupDid(g), type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar', readableBy: ['owner', 'admin', 'member'], credentialScopes: [{ role: 'owner', scopes: [EVENT] }] },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)

    const put = await write('member', 'going')
    expect(put.status).toBe(200)
    const listed = await listOnHost('owner', calendarSpace(g), 'member', RSVP)
    expect(listed.status).toBe(200)
    expect(listed.body.records).toEqual([{ uri: put.body.uri, cid: put.body.cid, value: expect.objectContaining({ status: 'going' }) }])
    expect(await getOnHost('admin', calendarSpace(g), 'member', RSVP, eventRkey)).toMatchObject({ status: 200, body: { cid: put.body.cid } })

    // A changed answer replaces the one kept; a deleted one is gone.
    const changed = await write('member', 'notgoing')
    expect((await listOnHost('owner', calendarSpace(g), 'member', RSVP)).body.records).toEqual([
      { uri: put.body.uri, cid: changed.body.cid, value: expect.objectContaining({ status: 'notgoing' }) },
    ])
    expect((await pds.delete('member', { space: calendarSpace(g), collection: RSVP, rkey: eventRkey })).status).toBe(200)
    expect((await listOnHost('owner', calendarSpace(g), 'member', RSVP)).body.records).toEqual([])
    expect((await write('member', 'going')).status).toBe(200)
  })

  it('refuses readers whose roles cannot read the space', async () => {
    expect(await listOnHost('moderator', calendarSpace(g), 'member', RSVP)).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await getOnHost('moderator', calendarSpace(g), 'member', RSVP, eventRkey)).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await listOnHost('outsider', calendarSpace(g), 'member', RSVP)).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('never keeps or serves a non-member’s record', async () => {
    const put = await write('outsider', 'going')
    expect(put.status).toBe(200) // the PDS stores it (spec section 3)
    expect(await announce('outsider', { space: calendarSpace(g), collection: RSVP, rkey: eventRkey, action: 'put', cid: put.body.cid })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await listOnHost('owner', calendarSpace(g), 'outsider', RSVP)).body).toEqual({ records: [] })
    expect(await getOnHost('owner', calendarSpace(g), 'outsider', RSVP, eventRkey)).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
  })

  it('drops the copies kept in a space when the space is deleted', async () => {
    const scratch = `at://${groupDid(g)}/space/example.scratch/self`
    const create = () =>
      net.as('owner').call('example.groups.createSpace', {
        body: { group: groupDid(g), type: 'example.scratch', skey: 'self', name: 'Scratch', readableBy: ['owner', 'member'], credentialScopes: [] },
      })
    expect((await create()).status).toBe(200)
    expect((await pds.put('member', { space: scratch, collection: RSVP, rkey: 'e9', record: { $type: RSVP, subject: 'at://x', status: 'going' } })).status).toBe(200)
    expect((await listOnHost('owner', scratch, 'member', RSVP)).body.records).toHaveLength(1)
    expect((await net.as('owner').call('example.groups.deleteSpace', { body: { group: groupDid(g), space: scratch } })).status).toBe(200)
    expect((await create()).status).toBe(200)
    expect((await listOnHost('owner', scratch, 'member', RSVP)).body).toEqual({ records: [] })
  })

  it('stops serving a member’s records when they are ejected or leave', async () => {
    expect((await write('admin', 'interested')).status).toBe(200)
    expect((await listOnHost('owner', calendarSpace(g), 'admin', RSVP)).body.records).toHaveLength(1)
    expect((await net.as('owner').call('example.groups.ejectMember', { body: { group: groupDid(g), did: pds.did('admin') } })).status).toBe(200)
    expect((await listOnHost('owner', calendarSpace(g), 'admin', RSVP)).body).toEqual({ records: [] })

    expect((await listOnHost('owner', calendarSpace(g), 'member', RSVP)).body.records).toHaveLength(1)
    expect((await net.as('member').call('example.groups.leaveGroup', { body: { group: groupDid(g) } })).status).toBe(200)
    expect((await listOnHost('owner', calendarSpace(g), 'member', RSVP)).body).toEqual({ records: [] })
    expect(await getOnHost('owner', calendarSpace(g), 'member', RSVP, eventRkey)).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
  })
})

describe('issue 27: RSVPs in the published community.lexicon.calendar.rsvp', () => {
  const g: StackGroupName = 'open'
  const PUBLISHED = 'community.lexicon.calendar.rsvp'
  const eventRkey = '3kabcdefgh33x'
  const cid = 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm'

  it('keeps and serves one as it keeps any member record, checked against the lexicon', async () => {
    const created = await net.as('owner').call('example.groups.createSpace', {
      body: { group: groupDid(g), type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar', readableBy: ['owner', 'admin', 'moderator', 'member'], credentialScopes: [{ role: 'owner', scopes: [EVENT] }] },
    })
    // Another test of this network may have made it already.
    expect([200, 400], JSON.stringify(created.body)).toContain(created.status)
    const record = { $type: PUBLISHED, subject: { uri: `at://${groupDid(g)}/${EVENT}/${eventRkey}`, cid }, status: `${PUBLISHED}#going` }
    const put = await pds.put('member', { space: calendarSpace(g), collection: PUBLISHED, rkey: eventRkey, record })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    const listed = await net.as('owner').call<{ records: (SpaceRecord & { repo: string })[] }>('example.groups.listMemberRecords', { params: { space: calendarSpace(g), collection: PUBLISHED } })
    // Going, it carries the place the host gave it too (issue 27 point 2; no capacity: going).
    expect(listed.body.records).toEqual([{ uri: put.body.uri, repo: pds.did('member'), cid: put.body.cid, value: record, standing: 'going' }])
  })

  it('does not keep one that breaks the lexicon (the old string subject in the new collection): the PDS took it, the host does not serve it', async () => {
    const rkey = '3kabcdefgh44x'
    const put = await pds.put('member', { space: calendarSpace(g), collection: PUBLISHED, rkey, record: { $type: PUBLISHED, subject: `${calendarSpace(g)}/${groupDid(g)}/${EVENT}/${rkey}`, status: 'going' } })
    expect(put.status).toBe(200)
    expect(await announce('member', { space: calendarSpace(g), collection: PUBLISHED, rkey, action: 'put', cid: put.body.cid })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await getOnHost('owner', calendarSpace(g), 'member', PUBLISHED, rkey)).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
  })
})

describe('finding: the local PDS announced writes to whatever service DID a server’s _health claimed', () => {
  const g: StackGroupName = 'invite'
  const space = () => calendarSpace(g)

  /** Service auth a DID the test holds signs for reading `repo`'s records on the PDS. */
  async function readAs(signer: { did: string; key: Secp256k1Keypair }, repo: StackAccountName) {
    const token = await createServiceJwt({
      iss: signer.did as `did:${string}:${string}`,
      aud: `${pds.did(repo)}#atproto_pds` as `did:${string}:${string}`,
      lxm: SPACE_GET_RECORD,
      keypair: signer.key,
    })
    return xrpc(net.stack.pds, SPACE_GET_RECORD, {
      params: { space: space(), repo: pds.did(repo), collection: RSVP, rkey: 'e1' },
      headers: { authorization: `Bearer ${token}` },
    })
  }

  it('serves members’ space records to no service-auth token but the group host’s', async () => {
    expect((await pds.put('moderator', { space: space(), collection: RSVP, rkey: 'e1', record: { $type: RSVP, subject: 'at://x', status: 'going' } })).status).toBe(200)

    // Any DID at all.
    const stranger = await mintControlledDid(net.stack.plc)
    expect(await readAs(stranger, 'moderator')).toMatchObject({ status: 403, body: { error: 'Forbidden' } })

    // A DID whose document names the real host's address, which the real host does not claim.
    const groupDoc = (await (await fetch(`${net.stack.plc}/${groupDid(g)}`)).json()) as { service: { id: string; serviceEndpoint: string }[] }
    const hostAddress = groupDoc.service.find((s) => s.id === `#${GROUPS_SERVICE_ID}`)!.serviceEndpoint
    const key = await Secp256k1Keypair.create({ exportable: true })
    const copycat = await mintPlcDid({ plcUrl: net.stack.plc, rotationKey: key, signingKey: key, services: { [GROUPS_SERVICE_ID]: { type: GROUPS_SERVICE_TYPE, endpoint: hostAddress } } })
    expect(await readAs({ did: copycat, key }, 'moderator')).toMatchObject({ status: 403, body: { error: 'Forbidden' } })

    // A session of someone else is not the author's either.
    expect(await pds.call('owner', SPACE_GET_RECORD, { params: { space: space(), repo: pds.did('moderator'), collection: RSVP, rkey: 'e1' } })).toMatchObject({ status: 400 })
    // The author still reads their own.
    expect((await pds.call('moderator', SPACE_GET_RECORD, { params: { space: space(), repo: pds.did('moderator'), collection: RSVP, rkey: 'e1' } })).status).toBe(200)
  })

  describe('a fake group whose server claims to be the real host', () => {
    const seen: string[] = []
    let fake: http.Server | undefined
    afterAll(() => closeServer(fake))

    it('hears nothing of members’ writes into its spaces', async () => {
      fake = http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url?.split('?')[0]}`)
        res.setHeader('content-type', 'application/json')
        const claim = { version: 'x', did: net.stack.host.serviceDid, aud: net.stack.host.aud }
        res.end(JSON.stringify(req.url?.startsWith('/xrpc/_health') ? claim : { accepted: true }))
      })
      const port = await freePort()
      await listenOn(fake, port)
      const fakeGroup = await mintForeignGroup(net.stack.plc, `http://127.0.0.1:${port}`)

      const put = await pds.put('member', { space: `at://${fakeGroup}/space/members/self`, collection: ACCEPTANCE, rkey: 'self', record: { $type: ACCEPTANCE, createdAt: new Date().toISOString() } })
      expect(put.status).toBe(200)
      const del = await pds.delete('member', { space: `at://${fakeGroup}/space/members/self`, collection: ACCEPTANCE, rkey: 'self' })
      expect(del.status).toBe(200)
      // The PDS asked who the server is (and found the real host's document names
      // another address); it sent no announcement, so no token of the member's.
      expect(seen.length).toBeGreaterThan(0)
      expect(seen.every((r) => r === 'GET /xrpc/_health')).toBe(true)
    })
  })
})

describe('finding (issue 22): a member made the host keep records in `meta` and in spaces they cannot read', () => {
  const NOTE = 'example.test.note'
  const rkey = '3knotenotenot2'
  const ownersOnly = () => `at://${groupDid('open')}/space/example.test.owners/self`
  const meta = () => `at://${groupDid('open')}/space/meta/self`
  const note = (space: string, text: string) => ({ space, collection: NOTE, rkey, record: { $type: NOTE, text } })
  const listAll = (reader: StackAccountName, space: string) =>
    net.as(reader).call<{ records: SpaceRecord[] }>('example.groups.listMemberRecords', { params: { space, collection: NOTE } })

  it('keeps nothing a plain member writes into meta or into a space only owners read', async () => {
    const created = await net.as('owner').call('example.groups.createSpace', {
      body: { group: groupDid('open'), type: 'example.test.owners', skey: 'self', name: 'Owners', readableBy: ['owner'], credentialScopes: [] },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    for (const space of [meta(), ownersOnly()]) {
      // Their PDS stores it (spec section 3); the host keeps none of it.
      expect((await pds.put('member', note(space, 'x'.repeat(1000)))).status, space).toBe(200)
      expect(await announce('member', { space, collection: NOTE, rkey, action: 'put' }), space).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
      expect((await listOnHost('owner', space, 'member', NOTE)).body, space).toEqual({ records: [] })
      expect((await listAll('owner', space)).body, space).toEqual({ records: [] })
      expect(await getOnHost('owner', space, 'member', NOTE, rkey), space).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
    }
    // An owner may write where they read, but not into meta either.
    expect((await pds.put('owner', note(ownersOnly(), 'for owners'))).status).toBe(200)
    expect((await listOnHost('owner', ownersOnly(), 'owner', NOTE)).body.records).toEqual([expect.objectContaining({ value: { $type: NOTE, text: 'for owners' } })])
    expect((await pds.put('owner', note(meta(), 'in meta'))).status).toBe(200)
    expect(await announce('owner', { space: meta(), collection: NOTE, rkey, action: 'put' })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await listOnHost('member', meta(), 'owner', NOTE)).body).toEqual({ records: [] })
  })

  it('still follows the delete of a copy kept before the member lost the right to read the space', async () => {
    const shared = `at://${groupDid('open')}/space/example.test.shared/self`
    const created = await net.as('owner').call('example.groups.createSpace', {
      body: { group: groupDid('open'), type: 'example.test.shared', skey: 'self', name: 'Shared', readableBy: ['owner', 'member'], credentialScopes: [] },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    expect((await pds.put('member', note(shared, 'mine'))).status).toBe(200)
    expect((await listOnHost('owner', shared, 'member', NOTE)).body.records).toHaveLength(1)
    const narrowed = await net.as('owner').call('example.groups.updateSpace', { body: { group: groupDid('open'), space: shared, readableBy: ['owner'] } })
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200)
    // A new version is not kept; taking the record away is followed.
    expect((await pds.put('member', note(shared, 'changed'))).status).toBe(200)
    expect(await announce('member', { space: shared, collection: NOTE, rkey, action: 'put' })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await pds.delete('member', { space: shared, collection: NOTE, rkey })).status).toBe(200)
    expect((await listOnHost('owner', shared, 'member', NOTE)).body).toEqual({ records: [] })
  })
})

describe('finding (issue 22): a member could make the host keep any number of records in a space', () => {
  const NOTE = 'example.test.note'
  const space = () => `at://${groupDid('open')}/space/example.test.notes/self`
  const note = (rkey: string, text: string) => ({ space: space(), collection: NOTE, rkey, record: { $type: NOTE, text } })
  const kept = async (name: StackAccountName) => {
    const res = await net.as('owner').call<{ records: { uri: string }[] }>('example.groups.listMemberRecords', { params: { space: space(), collection: NOTE, limit: 100 } })
    return res.body.records.filter((r) => r.uri.includes(`/${pds.did(name)}/`)).map((r) => r.uri.split('/').pop())
  }

  it('refuses a record past the most the host keeps of one member in one space, and takes updates and deletes', async () => {
    const created = await net.as('owner').call('example.groups.createSpace', {
      body: { group: groupDid('open'), type: 'example.test.notes', skey: 'self', name: 'Notes', readableBy: ['owner', 'admin', 'moderator', 'member'], credentialScopes: [] },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    // The member already has all but one of the records the host keeps for them there.
    await fillMemberRecords(
      net.running,
      Array.from({ length: MAX_MEMBER_RECORDS_PER_SPACE - 1 }, (_, i) => ({
        groupDid: groupDid('open'),
        space: space(),
        repo: pds.did('member'),
        collection: 'example.test.filler',
        rkey: `f${i}`,
        value: JSON.stringify({ $type: 'example.test.filler' }),
      })),
    )
    expect((await pds.put('member', note('3klastlastla2', 'the last one kept'))).status).toBe(200)
    expect(await kept('member')).toEqual(['3klastlastla2'])

    expect((await pds.put('member', note('3koneoneonea2', 'one too many'))).status).toBe(200)
    const refused = await announce('member', { space: space(), collection: NOTE, rkey: '3koneoneonea2', action: 'put' })
    expect(refused).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(refused.body).toMatchObject({ message: expect.stringContaining(`${MAX_MEMBER_RECORDS_PER_SPACE}`) })
    expect(await kept('member')).toEqual(['3klastlastla2'])

    // A new version of a record kept is not one more; deleting one makes room.
    expect((await pds.put('member', note('3klastlastla2', 'changed'))).status).toBe(200)
    expect((await listOnHost('owner', space(), 'member', NOTE)).body.records).toEqual([expect.objectContaining({ value: { $type: NOTE, text: 'changed' } })])
    expect((await pds.delete('member', { space: space(), collection: NOTE, rkey: '3klastlastla2' })).status).toBe(200)
    expect(await announce('member', { space: space(), collection: NOTE, rkey: '3koneoneonea2', action: 'put' })).toMatchObject({ status: 200, body: { accepted: true } })
    expect(await kept('member')).toEqual(['3koneoneonea2'])
  })

  it('refuses a record that would take a member past the bytes the host keeps of them in one space', async () => {
    const fill = Math.floor((MAX_MEMBER_RECORD_BYTES_PER_SPACE - 50_000) / 4)
    await fillMemberRecords(
      net.running,
      Array.from({ length: 4 }, (_, i) => ({
        groupDid: groupDid('open'),
        space: space(),
        repo: pds.did('admin'),
        collection: 'example.test.filler',
        rkey: `big${i}`,
        value: JSON.stringify({ $type: 'example.test.filler', text: 'x'.repeat(fill - 50) }),
      })),
    )
    expect((await pds.put('admin', note('3kbigbigbigb2', 'x'.repeat(100_000)))).status).toBe(200)
    const refused = await announce('admin', { space: space(), collection: NOTE, rkey: '3kbigbigbigb2', action: 'put' })
    expect(refused).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await kept('admin')).toEqual([])
    // A small one still fits.
    expect((await pds.put('admin', note('3ksmallsmall2', 'short'))).status).toBe(200)
    expect(await kept('admin')).toEqual(['3ksmallsmall2'])
  })
})
