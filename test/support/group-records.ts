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
  const res = await fetchWithDpop(
    key,
    `${grant.pds}/xrpc/com.atproto.space.createRecord`,
    {
      method: 'POST',
      headers: { authorization: `DPoP ${grant.accessJwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ space, repo: group, collection: EVENT, record: { $type: EVENT, name, startsAt: '2030-05-01T18:00:00.000Z', createdAt: new Date().toISOString() } }),
      accessToken: grant.accessJwt,
    },
    state,
  )
  const body = (await res.json()) as { uri: string }
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body.uri
}
