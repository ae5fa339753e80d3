import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { KeychainSecretStore } from '../../src/main/core/secrets/keychain-secret-store.js'

// The real Secret Service: `npm test` runs inside dbus-run-session with gnome-keyring.
const store = new KeychainSecretStore(`convene-keychain-test-${randomUUID()}`)

afterAll(async () => {
  for (const key of await store.keys()) await store.delete(key)
})

describe('keychain secret store (real Secret Service)', () => {
  it('answers the probe', async () => {
    await expect(store.probe()).resolves.toBeUndefined()
  })

  it('round-trips a value, lists keys by prefix, and deletes', async () => {
    await store.set('session:did:plc:abc', '{"dpopJwk":{"d":"x"}}')
    await store.set('other', 'y')
    expect(await store.get('session:did:plc:abc')).toBe('{"dpopJwk":{"d":"x"}}')
    expect(await store.keys('session:')).toEqual(['session:did:plc:abc'])
    await store.delete('session:did:plc:abc')
    expect(await store.get('session:did:plc:abc')).toBeUndefined()
  })

  it('keeps services apart', async () => {
    const other = new KeychainSecretStore(`convene-keychain-test-${randomUUID()}`)
    await store.set('shared-name', 'mine')
    expect(await other.get('shared-name')).toBeUndefined()
  })
})
