import { expect } from 'vitest'
import type { Caller } from './local-network.js'
import { createDpopKey, fetchWithDpop } from './dpop.js'

export const EVENT = 'community.lexicon.calendar.event'

/** A space every default role reads and the owner writes, for tests about its records. */
export async function createOpenSpace(owner: Caller, group: string, type: string): Promise<string> {
  const res = await owner.call<{ uri: string }>('example.groups.createSpace', {
    body: { group, type, skey: 'self', name: type, readableBy: ['owner', 'admin', 'moderator', 'member'], credentialScopes: [{ role: 'owner', scopes: ['*'] }] },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.uri
}

/** An event the group writes into `space`, with a group credential (getGroupAuth + DPoP), as the app does. */
export async function writeGroupEvent(hostUrl: string, writer: Caller, group: string, space: string, name: string): Promise<string> {
  const send = await groupCredential(hostUrl, writer, group, space)
  const res = await send('com.atproto.space.createRecord', { space, repo: group, collection: EVENT, record: { $type: EVENT, name, startsAt: '2030-05-01T18:00:00.000Z', createdAt: new Date().toISOString() } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.uri!
}

/** A group credential for `space` (getGroupAuth + DPoP), as a function that calls a space method with it. */
export async function groupCredential(hostUrl: string, writer: Caller, group: string, space: string) {
  const key = await createDpopKey()
  const state: { nonce?: string } = {}
  const token = await writer.serviceAuth('example.groups.getGroupAuth')
  const granted = await fetchWithDpop(
    key,
    `${hostUrl}/xrpc/example.groups.getGroupAuth`,
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ group, space }) },
    state,
  )
  const grant = (await granted.json()) as { accessJwt: string; pds: string }
  return async (method: string, body: Record<string, unknown>) => {
    const res = await fetchWithDpop(
      key,
      `${grant.pds}/xrpc/${method}`,
      { method: 'POST', headers: { authorization: `DPoP ${grant.accessJwt}`, 'content-type': 'application/json' }, body: JSON.stringify(body), accessToken: grant.accessJwt },
      state,
    )
    return { status: res.status, body: (await res.json()) as { uri?: string; error?: string } }
  }
}
