import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { joinRequestRows } from '../../support/host-db.js'

const net = useLocalNetwork()

describe('example.groups.requestJoin', () => {
  it('admits at once into an open group', async () => {
    const res = await net.as('outsider').call('example.groups.requestJoin', { body: { group: net.group('open').did } })
    expect(res).toMatchObject({ status: 200, body: { status: 'admitted' } })
  })

  it('answers AlreadyMember to a member', async () => {
    const res = await net.as('member').call('example.groups.requestJoin', { body: { group: net.group('open').did } })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: 'AlreadyMember' })
    expect(typeof res.body.message).toBe('string')
  })

  it('leaves a pending request in an approval group, once, however often asked', async () => {
    const outsider = net.as('outsider')
    const group = net.group('approval').did
    expect((await outsider.call('example.groups.requestJoin', { body: { group, message: 'hi' } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    expect((await outsider.call('example.groups.requestJoin', { body: { group } })).body).toEqual({ status: 'pending' })
  })

  it('refuses an invite-only group without an invite: InviteRequired', async () => {
    const res = await net.as('outsider2').call('example.groups.requestJoin', { body: { group: net.group('invite').did } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InviteRequired' } })
  })

  it('answers InvalidRequest "unknown group" for a group nobody hosts', async () => {
    const res = await net.as('outsider2').call('example.groups.requestJoin', { body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })

  it('answers InvalidRequest for malformed input, never a 500', async () => {
    const caller = net.as('outsider2')
    for (const body of [{}, { group: 'not-a-did' }, { group: 42 }, { group: net.group('open').did, message: 'x'.repeat(5000) }]) {
      const res = await caller.call('example.groups.requestJoin', { body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
  })
})

describe('example.groups.requestJoin asked and withdrawn over and over', () => {
  it('stops making requests after ten a day (429, saying when), so cycling cannot grow what the host keeps', async () => {
    const person = net.as('outsider')
    const group = net.group('approval').did
    // The request made above, withdrawn; then round after round of asking and withdrawing.
    expect((await person.call('example.groups.cancelJoinRequest', { body: { group } })).status).toBe(200)
    const answers: number[] = []
    for (let i = 0; i < 25; i++) {
      const asked = await person.call<{ status?: string; error?: string; message?: string }>('example.groups.requestJoin', { body: { group } })
      answers.push(asked.status)
      if (asked.status !== 200) {
        expect(asked.body).toMatchObject({ error: 'RateLimitExceeded', message: expect.stringMatching(/10 times in the last day.*ask again in \d+ hours/) })
        // The headers describe this limit, not the hourly one the call was also counted by:
        // a client reads from them that waiting a few minutes will not do.
        expect(asked.headers.get('ratelimit-limit')).toBe('10')
        expect(asked.headers.get('ratelimit-remaining')).toBe('0')
        expect(asked.headers.get('ratelimit-policy')).toBe('10;w=86400')
        const wait = Number(asked.headers.get('retry-after'))
        expect(wait).toBeGreaterThan(23 * 3600)
        expect(wait).toBeLessThanOrEqual(24 * 3600)
        expect(Number(asked.headers.get('ratelimit-reset')) - Date.now() / 1000).toBeGreaterThan(23 * 3600)
        expect((await person.call('example.groups.getJoinRequest', { params: { group } })).body).toEqual({})
        continue
      }
      expect(asked.body).toEqual({ status: 'pending', seq: expect.any(Number) })
      expect((await person.call('example.groups.cancelJoinRequest', { body: { group } })).status).toBe(200)
    }
    // The one made above and nine of these; the rest refused.
    expect(answers.filter((s) => s === 200)).toHaveLength(9)
    expect(answers.slice(9).every((s) => s === 429)).toBe(true)
    expect(await joinRequestRows(net.running, group, person.did)).toBe(10)

    const log = await net.as('owner').call<{ changes: { kind: string }[] }>('example.groups.listChanges', { params: { group, limit: 100 } })
    expect(log.body.changes.filter((c) => c.kind === 'joinRequest.created')).toHaveLength(10)
  })
})

describe('example.groups.requestJoin after the group opens', () => {
  it('closes a request made while the group needed approval, so a later decision is a plain RequestNotFound', async () => {
    const person = net.as('outsider2')
    const admin = net.as('admin')
    const group = net.group('approval').did
    expect((await person.call('example.groups.requestJoin', { body: { group } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    expect((await net.as('owner').call('example.groups.configureGroup', { body: { group, joinPolicy: 'open' } })).status).toBe(200)

    expect((await person.call('example.groups.requestJoin', { body: { group } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect((await person.call('example.groups.getJoinRequest', { params: { group } })).body).toEqual({})
    const pending = await admin.call<{ requests: { did: string }[] }>('example.groups.listJoinRequests', { params: { group } })
    expect(pending.body.requests.map((r) => r.did)).not.toContain(person.did)

    const decided = await admin.call('example.groups.admitMember', { body: { group, did: person.did, decision: 'admit' } })
    expect(decided).toMatchObject({ status: 400, body: { error: 'RequestNotFound' } })
    const denied = await admin.call('example.groups.admitMember', { body: { group, did: person.did, decision: 'deny' } })
    expect(denied).toMatchObject({ status: 400, body: { error: 'RequestNotFound' } })
  })
})
