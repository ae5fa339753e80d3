import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { MemberPds } from '../../support/member-pds.js'
import type { StackAccountName } from '../../../src/shared/stack-file.js'

/** Who is coming: every member's RSVPs in the calendar space, in one paged call. */
const net = useLocalNetwork()
const pds = new MemberPds(() => net.stack)

const RSVP = 'example.groups.rsvp'
const EVENT = 'community.lexicon.calendar.event'
const group = () => net.group('open').did
const calendar = () => `at://${group()}/space/community.lexicon.calendar/self`
const PICNIC = '3kpicnicpicn2'
const WALK = '3kwalkwalkwa2'

interface MemberRecord {
  uri: string
  repo: string
  cid: string
  value: { status: string; subject: string }
  takenDown?: boolean
}
type Page = { records: MemberRecord[]; cursor?: string; error?: string }

const rsvp = (name: StackAccountName, rkey: string, status: string) =>
  pds.put(name, {
    space: calendar(),
    collection: RSVP,
    rkey,
    record: { $type: RSVP, subject: `${calendar()}/${group()}/${EVENT}/${rkey}`, status, createdAt: new Date().toISOString() },
  })

const list = (reader: StackAccountName, params: Record<string, string | number | undefined> = {}) =>
  net.as(reader).call<Page>('example.groups.listMemberRecords', { params: { space: calendar(), collection: RSVP, ...params } })

describe('example.groups.listMemberRecords', () => {
  it('lists every member’s RSVPs to a reader of the calendar space, with who wrote each', async () => {
    const created = await net.as('owner').call('example.groups.createSpace', {
      body: { group: group(), type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar', readableBy: ['owner', 'admin', 'member'], credentialScopes: [{ role: 'owner', scopes: [EVENT] }] },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const puts = {
      member: await rsvp('member', PICNIC, 'going'),
      admin: await rsvp('admin', PICNIC, 'interested'),
      owner: await rsvp('owner', PICNIC, 'notgoing'),
      memberWalk: await rsvp('member', WALK, 'interested'),
    }
    for (const put of Object.values(puts)) expect(put.status, JSON.stringify(put.body)).toBe(200)

    const res = await list('owner')
    expect(res.status).toBe(200)
    expect(res.body.records).toHaveLength(4)
    const mine = res.body.records.find((r) => r.uri === puts.member.body.uri)
    // A going RSVP carries the place the host gave it (no capacity: going).
    expect(mine).toEqual({ uri: puts.member.body.uri, cid: puts.member.body.cid, repo: pds.did('member'), value: expect.objectContaining({ status: 'going' }), standing: 'going' })
    expect(res.body.cursor).toBeUndefined()
    // A plain member may read the space too, so they see who is coming.
    expect((await list('member')).body.records).toHaveLength(4)
  })

  it('lists the RSVPs to one event by its rkey', async () => {
    const res = await list('admin', { rkey: PICNIC })
    expect(res.body.records.map((r) => [r.repo, r.value.status]).sort()).toEqual(
      [
        [pds.did('member'), 'going'],
        [pds.did('admin'), 'interested'],
        [pds.did('owner'), 'notgoing'],
      ].sort(),
    )
    expect((await list('admin', { rkey: WALK })).body.records.map((r) => r.repo)).toEqual([pds.did('member')])
    expect((await list('admin', { rkey: '3knosuchevent' })).body.records).toEqual([])
  })

  it('shows a changed answer, not two', async () => {
    expect((await rsvp('member', PICNIC, 'notgoing')).status).toBe(200)
    const picnic = (await list('owner', { rkey: PICNIC })).body.records
    expect(picnic.filter((r) => r.repo === pds.did('member')).map((r) => r.value.status)).toEqual(['notgoing'])
  })

  it('pages by member and key without skipping or repeating', async () => {
    const whole = (await list('owner', { limit: 100 })).body.records.map((r) => r.uri)
    const seen: string[] = []
    let cursor: string | undefined
    for (let i = 0; i < 10; i++) {
      const res = await list('owner', { limit: 1, cursor })
      expect(res.status).toBe(200)
      seen.push(...res.body.records.map((r) => r.uri))
      cursor = res.body.cursor
      if (!cursor) break
    }
    expect(seen).toEqual(whole)
    expect(new Set(seen).size).toBe(4)
  })

  it('leaves out an RSVP the moderators took down, and shows it marked to readers holding mod.read', async () => {
    const taken = (await list('owner', { rkey: WALK })).body.records.find((r) => r.repo === pds.did('member'))!
    const subject = { $type: 'example.groups.defs#subjectRecord', uri: taken.uri }
    const moderate = (event: string) => net.as('admin').call('example.groups.emitModerationEvent', { body: { group: group(), subject, event } })
    const reported = await net.as('owner').call('example.groups.createReport', { body: { group: group(), subject, reasonType: 'com.atproto.moderation.defs#reasonRude' } })
    expect(reported.status, JSON.stringify(reported.body)).toBe(200)
    expect((await moderate('takedown')).status).toBe(200)

    const forMember = (await list('member')).body.records
    expect(forMember).toHaveLength(3)
    expect(forMember.map((r) => r.uri)).not.toContain(taken.uri)
    expect((await list('member', { rkey: WALK })).body.records).toEqual([])
    expect(JSON.stringify((await list('member', { rkey: WALK })).body)).not.toContain(taken.cid)
    // Owners and admins hold mod.read: they see it, marked, so the takedown can be reviewed.
    const forAdmin = (await list('admin')).body.records
    expect(forAdmin.find((r) => r.uri === taken.uri)).toMatchObject({ takenDown: true, value: { status: 'interested' } })
    expect(forAdmin.filter((r) => r.takenDown)).toHaveLength(1)

    expect((await moderate('reverseTakedown')).status).toBe(200)
    expect((await list('member')).body.records.map((r) => r.uri)).toContain(taken.uri)
  })

  it('refuses roles the space does not let read, and non-members', async () => {
    expect(await list('moderator')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await list('outsider')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('never lists a non-member’s record, and drops a member’s once they leave', async () => {
    expect((await rsvp('outsider', PICNIC, 'going')).status).toBe(200) // their PDS stores it; the host does not keep it
    expect((await list('owner')).body.records.some((r) => r.repo === pds.did('outsider'))).toBe(false)
    expect((await net.as('admin').call('example.groups.leaveGroup', { body: { group: group() } })).status).toBe(200)
    expect((await list('owner')).body.records.some((r) => r.repo === pds.did('admin'))).toBe(false)
  })

  it('answers InvalidRequest for bad input and SpaceNotFound for a space that does not exist', async () => {
    expect(await list('owner', { cursor: '!!' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    const oneSided = Buffer.from('did:plc:abc').toString('base64url')
    expect(await list('owner', { cursor: oneSided })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await list('owner', { limit: 101 })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await list('owner', { space: 'not-a-space' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await list('owner', { collection: 'not an nsid' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await list('owner', { space: `at://${group()}/space/example.nothing/self` })).toMatchObject({ status: 400, body: { error: 'SpaceNotFound' } })
  })
})
