import { describe, expect, it } from 'vitest'
import type { IdResolver } from '@atproto/identity'
import { resolveGroup } from '../../src/main/core/groups/resolve-group.js'

/**
 * Decisions 6.3: a group's handle is shown only when it holds both ways. A DID document
 * may claim any handle; only one that resolves back to the DID is believed.
 */
const HOST_URL = 'https://groups.example'
const HOST_DID = 'did:web:groups.example'
const GROUP = 'did:plc:groupgroupgroupgroupgrou'

function network(claimed: string, handles: Record<string, string>) {
  const docs: Record<string, unknown> = {
    [GROUP]: { id: GROUP, alsoKnownAs: [`at://${claimed}`], service: [{ id: '#groups', type: 'GroupHost', serviceEndpoint: HOST_URL }] },
    [HOST_DID]: { id: HOST_DID, service: [{ id: '#groups', type: 'GroupHost', serviceEndpoint: HOST_URL }] },
  }
  const idResolver = { did: { resolve: async (did: string) => docs[did] ?? null } } as unknown as IdResolver
  const lookups: string[] = []
  const resolveHandle = async (h: string) => {
    lookups.push(h)
    return handles[h] ?? null
  }
  const fetch = (async () => new Response(JSON.stringify({ did: HOST_DID }))) as unknown as typeof globalThis.fetch
  return { deps: { idResolver, resolveHandle, hostFetch: fetch }, lookups }
}

describe("a group's handle, checked both ways", () => {
  it('is shown when the claimed handle resolves back to the group', async () => {
    const { deps } = network('book.club.example', { 'book.club.example': GROUP })
    expect((await resolveGroup(GROUP, deps)).handle).toBe('book.club.example')
  })

  it('is not shown when the DID document claims a handle that belongs to someone else', async () => {
    const { deps } = network('famous.example', { 'famous.example': 'did:plc:someoneelsesomeoneelseso' })
    const group = await resolveGroup(GROUP, deps)
    expect(group.did).toBe(GROUP)
    expect(group.handle).toBeNull()
  })

  it('is not shown when the claimed handle resolves nowhere', async () => {
    const { deps } = network('gone.example', {})
    expect((await resolveGroup(GROUP, deps)).handle).toBeNull()
  })

  it('needs no second lookup when the handle typed is the one claimed (it already resolved here)', async () => {
    const { deps, lookups } = network('book.club.example', { 'book.club.example': GROUP })
    expect((await resolveGroup('@Book.Club.example', deps)).handle).toBe('book.club.example')
    expect(lookups).toEqual(['book.club.example'])
  })

  it('a typed handle that resolves to a group claiming another handle shows the claimed one only if it holds', async () => {
    const { deps } = network('real.example', { 'alias.example': GROUP, 'real.example': 'did:plc:otherotherotherotherother' })
    expect((await resolveGroup('alias.example', deps)).handle).toBeNull()
  })
})
