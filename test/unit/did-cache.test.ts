import { IdResolver, type DidDocument } from '@atproto/identity'
import { describe, expect, it } from 'vitest'
import { HostDidCache, type DidCacheOptions } from '../../src/host/identity/did-cache.js'

const doc = (did: string, key: string): DidDocument => ({
  id: did,
  verificationMethod: [{ id: `${did}#atproto`, type: 'Multikey', controller: did, publicKeyMultibase: key }],
})

/** A resolver over a fake PLC that counts lookups and answers the current document. */
function setup(opts: Partial<DidCacheOptions> = { staleMs: 1_000, maxMs: 10_000, maxEntries: 3, absentMs: 5_000, maxAbsent: 2 }) {
  let now = 0
  const docs = new Map<string, DidDocument>()
  let lookups = 0
  let outage = false
  const fetch = (async (input: string | URL | Request) => {
    lookups++
    if (outage) return new Response('slow down', { status: 429 })
    const did = decodeURIComponent(new URL(input instanceof Request ? input.url : input).pathname.slice(1))
    const found = docs.get(did)
    return found ? Response.json(found) : new Response('not found', { status: 404 })
  }) as typeof globalThis.fetch
  const resolver = new IdResolver({ plcUrl: 'http://127.0.0.1:1', didCache: new HostDidCache(opts, () => now), fetch })
  return { resolver, docs, lookups: () => lookups, advance: (ms: number) => (now += ms), setOutage: (on: boolean) => (outage = on) }
}

const settle = () => new Promise((r) => setTimeout(r, 10))

describe('HostDidCache (the host keeps DID documents it resolved)', () => {
  it('answers repeated lookups from the cache, and a forced refresh from the PLC', async () => {
    const t = setup()
    t.docs.set('did:plc:a', doc('did:plc:a', 'zKey1'))
    for (let i = 0; i < 3; i++) expect((await t.resolver.did.resolve('did:plc:a'))?.id).toBe('did:plc:a')
    expect(t.lookups()).toBe(1)
    t.docs.set('did:plc:a', doc('did:plc:a', 'zKey2'))
    const fresh = await t.resolver.did.resolve('did:plc:a', true)
    expect(fresh?.verificationMethod?.[0]).toMatchObject({ publicKeyMultibase: 'zKey2' })
    expect(t.lookups()).toBe(2)
    // The forced answer is what the cache holds now.
    expect((await t.resolver.did.resolve('did:plc:a'))?.verificationMethod?.[0]).toMatchObject({ publicKeyMultibase: 'zKey2' })
    expect(t.lookups()).toBe(2)
  })

  it('answers a stale entry at once and refreshes it in the background, once', async () => {
    const t = setup()
    t.docs.set('did:plc:a', doc('did:plc:a', 'zKey1'))
    await t.resolver.did.resolve('did:plc:a')
    t.docs.set('did:plc:a', doc('did:plc:a', 'zKey2'))
    t.advance(1_500)
    const [first, second] = await Promise.all([t.resolver.did.resolve('did:plc:a'), t.resolver.did.resolve('did:plc:a')])
    expect(first?.verificationMethod?.[0]).toMatchObject({ publicKeyMultibase: 'zKey1' })
    expect(second?.verificationMethod?.[0]).toMatchObject({ publicKeyMultibase: 'zKey1' })
    await settle()
    expect(t.lookups()).toBe(2)
    expect((await t.resolver.did.resolve('did:plc:a'))?.verificationMethod?.[0]).toMatchObject({ publicKeyMultibase: 'zKey2' })
    expect(t.lookups()).toBe(2)
  })

  it('does not use an entry past its maximum age, and forgets a DID that is gone', async () => {
    const t = setup()
    t.docs.set('did:plc:a', doc('did:plc:a', 'zKey1'))
    await t.resolver.did.resolve('did:plc:a')
    t.docs.delete('did:plc:a')
    t.advance(11_000)
    expect(await t.resolver.did.resolve('did:plc:a')).toBeNull()
    expect(t.lookups()).toBe(2)
  })

  it('keeps at most maxEntries documents', async () => {
    const t = setup()
    for (const id of ['a', 'b', 'c', 'd']) {
        t.docs.set(`did:plc:${id}`, doc(`did:plc:${id}`, 'zKey'))
        await t.resolver.did.resolve(`did:plc:${id}`)
    }
    expect(t.lookups()).toBe(4)
    await t.resolver.did.resolve('did:plc:d')
    expect(t.lookups()).toBe(4)
    await t.resolver.did.resolve('did:plc:a') // the oldest, evicted
    expect(t.lookups()).toBe(5)
  })

  it('remembers for a while that a DID does not exist: asking again costs the PLC nothing', async () => {
    const t = setup()
    for (let i = 0; i < 5; i++) expect(await t.resolver.did.resolve('did:plc:nobody')).toBeNull()
    expect(t.lookups()).toBe(1)
    // Once that while is over, the PLC is asked again, and a DID made since is found.
    t.docs.set('did:plc:nobody', doc('did:plc:nobody', 'zKey'))
    t.advance(4_000)
    expect(await t.resolver.did.resolve('did:plc:nobody')).toBeNull()
    t.advance(1_500)
    expect((await t.resolver.did.resolve('did:plc:nobody'))?.id).toBe('did:plc:nobody')
    expect(t.lookups()).toBe(2)
  })

  it('does not take an outage (a 429 from the PLC) for an answer: the next look-up asks again', async () => {
    const t = setup()
    t.setOutage(true)
    for (let i = 0; i < 2; i++) await expect(t.resolver.did.resolve('did:plc:a')).rejects.toThrow()
    expect(t.lookups()).toBe(2)
    t.setOutage(false)
    t.docs.set('did:plc:a', doc('did:plc:a', 'zKey'))
    expect((await t.resolver.did.resolve('did:plc:a'))?.id).toBe('did:plc:a')
  })

  it('keeps at most maxAbsent absent DIDs, apart from the documents (made-up DIDs do not push real ones out)', async () => {
    const t = setup()
    t.docs.set('did:plc:real', doc('did:plc:real', 'zKey'))
    await t.resolver.did.resolve('did:plc:real')
    for (const id of ['x', 'y', 'z']) await t.resolver.did.resolve(`did:plc:${id}`)
    expect(t.lookups()).toBe(4)
    await t.resolver.did.resolve('did:plc:z')
    await t.resolver.did.resolve('did:plc:real')
    expect(t.lookups()).toBe(4)
    await t.resolver.did.resolve('did:plc:x') // the oldest absent one, forgotten
    expect(t.lookups()).toBe(5)
  })
})
