import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NodeSavedSession } from '@atproto/oauth-client-node'
import { useLocalNetwork } from '../../support/local-network.js'
import { CoreHarness } from '../../support/core-harness.js'
import { closeSharedBrowser } from '../../support/browser-sign-in.js'
import { completeGroupSignIn } from '../../support/group-sign-in.js'
import { calendarSpace, CALENDAR_TYPE, EVENT_COLLECTION } from '../../../src/main/core/calendar/calendar-space.js'
import { groupSessionKey } from '../../../src/main/core/group-sessions/group-session-store.js'
import { createOAuthClient } from '../../../src/main/core/accounts/oauth-client.js'
import { memoryStateStore } from '../../../src/main/core/accounts/session-store.js'
import { groupSessionScope } from '../../../src/shared/group-scope.js'

const net = useLocalNetwork()
let app: CoreHarness
const group = () => net.group('open')
const person = (name: 'owner' | 'admin' | 'member') => net.stack.accounts.find((a) => a.name === name)!

/** The group's calendar events as the host serves them to a member. */
async function calendarOnHost(): Promise<{ uri: string; value: { name: string } }[]> {
  const res = await net.as('owner').call<{ records: { uri: string; value: { name: string } }[] }>('com.atproto.space.listRecords', {
    params: { space: calendarSpace(group().did), repo: group().did, collection: EVENT_COLLECTION },
  })
  expect(res.status).toBe(200)
  return res.body.records
}

beforeAll(async () => {
  app = await CoreHarness.start(net.stack)
  // The calendar space is an organizer's to create (with service auth); a group session
  // only writes in it.
  const created = await net.as('owner').call('example.groups.createSpace', {
    body: {
      group: group().did,
      type: CALENDAR_TYPE,
      skey: 'self',
      name: 'Calendar',
      readableBy: ['owner', 'admin', 'moderator', 'member'],
      credentialScopes: [{ role: 'owner', scopes: [EVENT_COLLECTION] }, { role: 'admin', scopes: [EVENT_COLLECTION] }],
    },
  })
  expect(created.status).toBe(200)
})
afterAll(async () => {
  await app?.stop()
  await closeSharedBrowser()
})

describe('acting as a group through its OAuth session', () => {
  it('signs in with the group’s handle, writes a calendar event as the group, and signing out revokes the session', async () => {
    const start = await app.call('groupSessions.signIn', { group: group().handle })
    expect(new URL(start.authorizeUrl).origin).toBe(new URL(net.stack.host.url).origin)
    const { consent } = await completeGroupSignIn(start.authorizeUrl, person('owner'))
    // The host's consent names the group and the person.
    expect(consent).toContain(group().handle)
    expect(consent).toContain(person('owner').handle)

    const session = await app.call('groupSessions.awaitSignIn', { attemptId: start.attemptId })
    expect(session).toMatchObject({ did: group().did, handle: group().handle, hostUrl: net.stack.host.url, status: 'active' })
    expect(session.abilities.map((a) => a.key)).toContain('calendar.create')
    expect(await app.call('groupSessions.list', {})).toEqual([session])
    // Like an account's, the session and its DPoP private key are in the keychain.
    const saved = JSON.parse((await app.secrets.get(groupSessionKey(group().did)))!) as NodeSavedSession
    expect(saved.dpopJwk).toHaveProperty('d')
    // …and nowhere on disk: grep finds neither the tokens nor the private key under the app's data folder.
    const { execFileSync } = await import('node:child_process')
    for (const secret of [(saved.dpopJwk as { d: string }).d, saved.tokenSet.access_token, saved.tokenSet.refresh_token!]) {
      expect(() => execFileSync('grep', ['-rl', '--', secret, app.dataDir], { encoding: 'utf8' })).toThrow() // grep exits 1: no match
    }

    const startsAt = new Date(Date.now() + 86_400_000).toISOString()
    const written = await app.call('groupSessions.createEvent', { groupDid: group().did, event: { name: 'Written as the group', startsAt } })
    expect(written.uri).toBe(`${calendarSpace(group().did)}/${group().did}/${EVENT_COLLECTION}/${written.rkey}`)
    expect((await calendarOnHost()).map((r) => r.value.name)).toContain('Written as the group')

    await app.call('groupSessions.signOut', { did: group().did })
    expect(await app.call('groupSessions.list', {})).toEqual([])
    expect(await app.secrets.get(groupSessionKey(group().did))).toBeUndefined()

    // A copy of the session taken before signing out is worth nothing now: the host
    // revoked it, so its token is refused and it cannot be refreshed.
    const copies = new Map<string, NodeSavedSession>([[group().did, saved]])
    const client = createOAuthClient({
      network: { plcUrl: net.stack.plc, handleResolverUrl: net.stack.pds, allowHttp: true },
      // The same client as the app's, so its refresh is refused for the revocation alone.
      scope: groupSessionScope(group().did),
      sessionStore: { get: async (k) => copies.get(k), set: async (k, v) => void copies.set(k, v), del: async (k) => void copies.delete(k) },
      stateStore: memoryStateStore(),
    })
    const stolen = await client.restore(group().did, false)
    const res = await stolen.fetchHandler('/xrpc/com.atproto.space.createRecord', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ space: calendarSpace(group().did), repo: group().did, collection: EVENT_COLLECTION, record: { $type: EVENT_COLLECTION, name: 'After sign-out', startsAt, createdAt: startsAt } }),
    })
    expect(res.status).toBe(401)
    expect((await calendarOnHost()).map((r) => r.value.name)).not.toContain('After sign-out')
  })

  it('offers nothing the host did not grant: a plain member acting as the group may not write its calendar', async () => {
    const start = await app.call('groupSessions.signIn', { group: group().handle })
    await completeGroupSignIn(start.authorizeUrl, person('member'))
    const session = await app.call('groupSessions.awaitSignIn', { attemptId: start.attemptId })
    expect(session.did).toBe(group().did)
    expect(session.abilities).toEqual([])
    const before = (await calendarOnHost()).length
    await expect(
      app.call('groupSessions.createEvent', { groupDid: group().did, event: { name: 'Not granted', startsAt: new Date(Date.now() + 86_400_000).toISOString() } }),
    ).rejects.toMatchObject({ code: 'NotGranted' })
    expect(await calendarOnHost()).toHaveLength(before)
    await app.call('groupSessions.signOut', { did: group().did })
  })

  it('after the person’s role is taken away, the next write is refused and the session shows it may do nothing more', async () => {
    const start = await app.call('groupSessions.signIn', { group: group().handle })
    await completeGroupSignIn(start.authorizeUrl, person('admin'))
    const session = await app.call('groupSessions.awaitSignIn', { attemptId: start.attemptId })
    expect(session.abilities.map((a) => a.key)).toContain('calendar.create')
    const startsAt = new Date(Date.now() + 86_400_000).toISOString()
    await app.call('groupSessions.createEvent', { groupDid: group().did, event: { name: 'While admin', startsAt } })

    const revoked = await net.as('owner').call('example.groups.revokeRole', { body: { group: group().did, did: person('admin').did, role: 'admin' } })
    expect(revoked.status).toBe(200)
    await expect(app.call('groupSessions.createEvent', { groupDid: group().did, event: { name: 'After the role went', startsAt } })).rejects.toMatchObject({ code: 'NotGranted' })
    expect((await calendarOnHost()).map((r) => r.value.name)).not.toContain('After the role went')
    // The refusal made the app ask the host again: the session now offers nothing (or has ended).
    const [after] = await app.call('groupSessions.list', {})
    expect(after!.status === 'needs-sign-in' || after!.abilities.length === 0).toBe(true)
    expect(after!.abilities).toEqual([])
    await app.call('groupSessions.signOut', { did: group().did })
  })

  it('a refused consent on the host’s page keeps nothing and says so', async () => {
    const start = await app.call('groupSessions.signIn', { group: group().handle })
    await completeGroupSignIn(start.authorizeUrl, person('owner'), 'Deny')
    await expect(app.call('groupSessions.awaitSignIn', { attemptId: start.attemptId })).rejects.toMatchObject({ code: 'SignInDenied', message: expect.stringContaining('cancelled') })
    expect(await app.call('groupSessions.list', {})).toEqual([])
    expect(await app.secrets.get(groupSessionKey(group().did))).toBeUndefined()
  })

  it('says plainly when the handle is not a group’s', async () => {
    await expect(app.call('groupSessions.signIn', { group: person('owner').handle })).rejects.toMatchObject({ code: 'NotAGroup' })
  })
})
