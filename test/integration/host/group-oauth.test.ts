import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NodeOAuthClient, NodeSavedSession } from '@atproto/oauth-client-node'
import type { OAuthSession } from '@atproto/oauth-client'
import { useLocalNetwork } from '../../support/local-network.js'
import { closeSharedBrowser } from '../../support/browser-sign-in.js'
import { completeGroupSignIn } from '../../support/group-sign-in.js'
import { createOAuthClient } from '../../../src/main/core/accounts/oauth-client.js'
import { openLoopbackRedirect } from '../../../src/main/core/accounts/loopback-redirect.js'
import { memoryStateStore } from '../../../src/main/core/accounts/session-store.js'

/**
 * The group sign-in (issue 14, decisions 6.6), end to end: `@atproto/oauth-client-node`
 * as any app uses it (the `http://localhost` development client) signs in with a group's
 * handle; the person signs in on the real PDS's pages in Chromium; the session acts as
 * the group, with what the person's roles allow.
 */
const net = useLocalNetwork()
afterAll(closeSharedBrowser)

const EVENT = 'community.lexicon.calendar.event'
const IMAGE = 'example.groups.eventImage'
const group = () => net.group('open')
const calendar = () => `at://${group().did}/space/community.lexicon.calendar/self`
const askedScope = () =>
  `atproto space:community.lexicon.calendar?authority=${group().did}&skey=self&collection=${EVENT}&collection=${IMAGE}&action=create&action=update&action=delete`

beforeAll(async () => {
  // Admins may write events with a group credential, not images; owners anything.
  const res = await net.as('owner').call('example.groups.createSpace', {
    body: {
      group: group().did,
      type: 'community.lexicon.calendar',
      skey: 'self',
      name: 'Calendar',
      readableBy: ['owner', 'admin', 'moderator', 'member'],
      credentialScopes: [{ role: 'owner', scopes: ['*'] }, { role: 'admin', scopes: [EVENT] }],
    },
  })
  expect(res.status).toBe(200)
})

/** An app's OAuth client, resolving handles as the app does on the local network (the host knows its groups'). */
function appClient(scope: string, port: number): NodeOAuthClient {
  const sessions = new Map<string, NodeSavedSession>()
  return createOAuthClient({
    network: { plcUrl: net.stack.plc, handleResolverUrl: net.stack.host.url, allowHttp: true },
    scope,
    port,
    stateStore: memoryStateStore(),
    sessionStore: { get: async (k) => sessions.get(k), set: async (k, v) => void sessions.set(k, v), del: async (k) => void sessions.delete(k) },
  })
}

interface GroupSignIn {
  consent?: string
  stoppedAt?: string
  params?: URLSearchParams
  session?: OAuthSession
}

async function signInAsGroup(person: 'admin' | 'member' | 'outsider', choice: 'Allow' | 'Deny' = 'Allow', scope = askedScope()): Promise<GroupSignIn> {
  const redirect = await openLoopbackRedirect()
  try {
    const client = appClient(scope, redirect.port)
    const url = await client.authorize(group().handle, { scope })
    const account = net.as(person).account
    const result = await completeGroupSignIn(url.toString(), { handle: account.handle, password: account.password }, choice)
    if (!result.redirect) return result
    const params = await redirect.params
    if (params.get('error')) return { ...result, params }
    return { ...result, params, session: (await client.callback(params)).session }
  } finally {
    redirect.close()
  }
}

async function createEvent(session: OAuthSession, collection = EVENT) {
  const record = collection === EVENT ? { $type: EVENT, name: 'Picnic', startsAt: '2026-07-01T12:00:00.000Z', createdAt: new Date().toISOString() } : { $type: collection }
  const res = await session.fetchHandler('/xrpc/com.atproto.space.createRecord', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ space: calendar(), repo: group().did, collection, record }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('signing in as a group with its handle', () => {
  // The admin's sign-in, made by whichever test needs it first, so each runs on its own.
  let signingIn: Promise<GroupSignIn> | undefined
  const adminSignIn = () => (signingIn ??= signInAsGroup('admin'))
  const adminSession = async () => {
    const result = await adminSignIn()
    expect(result.session, result.stoppedAt).toBeDefined()
    return result.session!
  }

  it('yields a session for the group DID after the person signs in at their PDS and consents', async () => {
    const session = await adminSession()
    expect(session.did).toBe(group().did)
    expect(session.serverMetadata.issuer).toBe(new URL(net.stack.host.url).origin)
  })

  it('showed consent naming the group, the person, their role and the app', async () => {
    const { consent } = await adminSignIn()
    expect(consent).toContain(`@${group().handle}`)
    expect(consent).toContain('Open group')
    expect(consent).toContain(`@${net.as('admin').account.handle}`)
    expect(consent).toMatch(/Your roles\s+admin/)
    expect(consent).toContain(EVENT)
    // The image collection the admin role does not get is not offered.
    expect(consent).not.toContain(IMAGE)
  })

  it('grants the scope narrowed to the role: images dropped, events kept', async () => {
    const { scope } = await (await adminSession()).getTokenInfo()
    expect(scope).toContain(`collection=${EVENT}`)
    expect(scope).not.toContain(IMAGE)
    expect(scope.split(' ')[0]).toBe('atproto')
  })

  it('writes an event in the calendar space as the group, and is refused the dropped collection', async () => {
    const session = await adminSession()
    const made = await createEvent(session)
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    expect(made.body.uri).toMatch(new RegExp(`^${calendar()}/${group().did}/${EVENT}/`))
    const read = await net.as('member').call<{ records: { uri: string }[] }>('com.atproto.space.listRecords', {
      params: { space: calendar(), repo: group().did, collection: EVENT },
    })
    expect(read.body.records.map((r) => r.uri)).toContain(made.body.uri)

    const image = await createEvent(session, IMAGE)
    expect(image).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('after the role is revoked, the next write is refused and the session cannot be refreshed', async () => {
    // A session of its own: the revoke ends it.
    const { session, stoppedAt } = await signInAsGroup('admin')
    expect(session, stoppedAt).toBeDefined()
    const revoked = await net.as('owner').call('example.groups.revokeRole', { body: { group: group().did, did: net.as('admin').did, role: 'admin' } })
    expect(revoked.status).toBe(200)
    expect(await createEvent(session!)).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    await expect(session!.getTokenInfo(true)).rejects.toThrow()
    // Given back for the next tests.
    await net.as('owner').call('example.groups.grantRole', { body: { group: group().did, did: net.as('admin').did, role: 'admin' } })
  })
})

describe('a session granted some actions only', () => {
  it('may add an event but not delete one when the app asked only to create', async () => {
    const createOnly = askedScope().replace('&action=update&action=delete', '')
    const { session, stoppedAt } = await signInAsGroup('admin', 'Allow', createOnly)
    expect(session, stoppedAt).toBeDefined()
    const made = await createEvent(session!)
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const res = await session!.fetchHandler('/xrpc/com.atproto.space.deleteRecord', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ space: calendar(), repo: group().did, collection: EVENT, rkey: String(made.body.uri).split('/').pop() }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toBe('Forbidden')
  })
})

describe('a session of someone holding a custom role (issue 25)', () => {
  const owner = (method: string, body: Record<string, unknown>) => net.as('owner').call<{ error?: string }>(method, { body: { group: group().did, ...body } })
  const scopes = (planner: string | null) => [{ role: 'owner', scopes: ['*'] }, { role: 'admin', scopes: [EVENT] }, ...(planner ? [{ role: planner, scopes: [EVENT] }] : [])]

  it('is narrowed to what the space gives the custom role, keeps it through a rename, and is refused at once when the role loses it', async () => {
    expect((await owner('example.groups.putRole', { name: 'planner', actions: [], assignable: [] })).status).toBe(200)
    expect((await owner('example.groups.updateSpace', { space: calendar(), credentialScopes: scopes('planner') })).status).toBe(200)
    expect((await owner('example.groups.grantRole', { did: net.as('member').did, role: 'planner' })).status).toBe(200)

    const { session, consent, stoppedAt } = await signInAsGroup('member')
    expect(session, stoppedAt).toBeDefined()
    expect(consent).toMatch(/Your roles\s+member, planner/)
    const { scope } = await session!.getTokenInfo()
    expect(scope).toContain(`collection=${EVENT}`)
    expect(scope).not.toContain(IMAGE)
    expect((await createEvent(session!)).status).toBe(200)

    // Renamed: the space and the session follow, so it writes and refreshes as before.
    expect((await owner('example.groups.putRole', { name: 'event-planner', previousName: 'planner', actions: [], assignable: [] })).status).toBe(200)
    expect((await createEvent(session!)).status).toBe(200)
    await expect(session!.getTokenInfo(true)).resolves.toMatchObject({ sub: group().did })

    // The space stops giving the role events: the next write is refused, the token unexpired.
    expect((await owner('example.groups.updateSpace', { space: calendar(), credentialScopes: scopes(null) })).status).toBe(200)
    expect(await createEvent(session!)).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })
})

describe('a scope for every group (decisions 7.4: a published client names no group)', () => {
  it('is granted for the one group signed in as, naming it, and writes there', async () => {
    const anyGroup = `atproto space:community.lexicon.calendar?skey=self&collection=${EVENT}&action=create`
    const { session, stoppedAt } = await signInAsGroup('admin', 'Allow', anyGroup)
    expect(session, stoppedAt).toBeDefined()
    const { scope } = await session!.getTokenInfo()
    expect(scope).toBe(`atproto space:community.lexicon.calendar?authority=${group().did}&skey=self&collection=${EVENT}&action=create`)
    expect((await createEvent(session!)).status).toBe(200)
  })
})

describe("the group's public repo (issue 28)", () => {
  it('grants the posts the roles may write, names them on the consent page, and posts as the group', async () => {
    const POST = 'app.bsky.feed.post'
    const { session, stoppedAt, consent } = await signInAsGroup('admin', 'Allow', `atproto repo:${POST} repo:app.bsky.graph.follow`)
    expect(session, stoppedAt).toBeDefined()
    expect(consent).toContain('Write, change and delete the group’s public posts')
    expect((await session!.getTokenInfo()).scope).toBe(`atproto repo:${POST}`)
    const res = await session!.fetchHandler('/xrpc/com.atproto.repo.createRecord', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repo: group().did, collection: POST, record: { $type: POST, text: 'From a session', createdAt: new Date().toISOString() } }),
    })
    const body = (await res.json()) as { uri: string }
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.uri).toMatch(new RegExp(`^at://${group().did}/${POST}/`))
  })
})

describe('who may not act as the group', () => {
  it('tells a person with no role in the group so, and makes no session', async () => {
    const result = await signInAsGroup('outsider')
    expect(result.session).toBeUndefined()
    expect(result.stoppedAt).toContain('hold no role')
    expect(result.stoppedAt).toContain('No session was made')
  })

  it('returns access_denied with state and iss to the app when the person denies', async () => {
    const result = await signInAsGroup('admin', 'Deny')
    expect(result.session).toBeUndefined()
    expect(result.params?.get('error')).toBe('access_denied')
    expect(result.params?.get('iss')).toBe(new URL(net.stack.host.url).origin)
    expect(result.params?.get('state')).toBeTruthy()
  })
})
