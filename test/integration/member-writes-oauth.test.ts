import { afterAll, describe, expect, it } from 'vitest'
import type { OAuthSession } from '@atproto/oauth-client'
import type { NodeSavedSession } from '@atproto/oauth-client-node'
import { useLocalNetwork } from '../support/local-network.js'
import { closeSharedBrowser, completeOnPdsPages } from '../support/browser-sign-in.js'
import { createOAuthClient } from '../../src/main/core/accounts/oauth-client.js'
import { openLoopbackRedirect } from '../../src/main/core/accounts/loopback-redirect.js'
import { memoryStateStore } from '../../src/main/core/accounts/session-store.js'

/**
 * Member writes through an OAuth session (DPoP-bound tokens), as the app makes them:
 * the PDS's space routes enforce the session's scope per collection.
 */
const net = useLocalNetwork()
afterAll(closeSharedBrowser)

const ACCEPTANCE = 'example.groups.acceptance'
const RSVP = 'example.groups.rsvp'

async function signIn(scope: string): Promise<OAuthSession> {
  const sessions = new Map<string, NodeSavedSession>()
  const redirect = await openLoopbackRedirect()
  try {
    const client = createOAuthClient({
      network: { plcUrl: net.stack.plc, handleResolverUrl: net.stack.pds, allowHttp: true },
      scope,
      port: redirect.port,
      stateStore: memoryStateStore(),
      sessionStore: { get: async (k) => sessions.get(k), set: async (k, v) => void sessions.set(k, v), del: async (k) => void sessions.delete(k) },
    })
    const url = await client.authorize(net.as('member').account.handle, { scope })
    await completeOnPdsPages(url.toString(), net.as('member').account.password)
    return (await client.callback(await redirect.params)).session
  } finally {
    redirect.close()
  }
}

async function write(session: OAuthSession, method: string, body: Record<string, unknown>) {
  const res = await session.fetchHandler(`/xrpc/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

async function acceptedOnHost(): Promise<boolean | undefined> {
  const res = await net.as('owner').call<{ members: { did: string; accepted: boolean }[] }>('example.groups.listMembers', { params: { group: net.group('open').did } })
  return res.body.members.find((m) => m.did === net.as('member').did)?.accepted
}

describe('member writes with an OAuth session', () => {
  const space = () => `at://${net.group('open').did}/space/members/self`
  const acceptance = () => ({ space: space(), repo: net.as('member').did, collection: ACCEPTANCE, rkey: 'self', record: { $type: ACCEPTANCE, createdAt: new Date().toISOString() } })
  const rsvp = () => ({
    space: `at://${net.group('open').did}/space/community.lexicon.calendar/self`,
    repo: net.as('member').did,
    collection: RSVP,
    rkey: '3kabcdefgh22x',
    record: { $type: RSVP, subject: 'at://x', status: 'going' },
  })

  it('refuses a collection the session’s scope leaves out: 403 ScopeMissingError naming the repo: scope', async () => {
    const session = await signIn('atproto include:example.groups.calendarPermissions')
    expect((await session.getTokenInfo()).scope).not.toContain(ACCEPTANCE)

    expect(await write(session, 'com.atproto.space.putRecord', rsvp())).toMatchObject({ status: 200 })
    const refused = await write(session, 'com.atproto.space.putRecord', acceptance())
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe('ScopeMissingError')
    expect(refused.body.message).toContain(`repo:${ACCEPTANCE}`)
    const del = await write(session, 'com.atproto.space.deleteRecord', { ...acceptance(), record: undefined })
    expect(del.status).toBe(403)
    expect(await acceptedOnHost()).toBe(false)
  })

  it('writes and withdraws the acceptance under basePermissions, and the host follows', async () => {
    const session = await signIn(`atproto include:example.groups.basePermissions?aud=${encodeURIComponent(net.stack.host.aud)}`)
    const put = await write(session, 'com.atproto.space.putRecord', acceptance())
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body.uri).toBe(`${space()}/${net.as('member').did}/${ACCEPTANCE}/self`)
    expect(await acceptedOnHost()).toBe(true)
    // RSVPs are calendarPermissions' business.
    expect((await write(session, 'com.atproto.space.putRecord', rsvp())).status).toBe(403)

    const del = await write(session, 'com.atproto.space.deleteRecord', { ...acceptance(), record: undefined })
    expect(del.status).toBe(200)
    expect(await acceptedOnHost()).toBe(false)
  })
})
