import { describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/core/secrets/memory-secret-store.js'
import { AccountStore, sessionKey } from '../../src/main/core/accounts/account-store.js'
import { GroupSessionStore, groupSessionKey } from '../../src/main/core/group-sessions/group-session-store.js'
import { groupSessionScope } from '../../src/shared/group-scope.js'

const A = 'did:plc:aliceaaaaaaaaaaaaaaaaaaa'
const G = 'did:plc:groupaaaaaaaaaaaaaaaaaaa'

/** Counts keychain writes, to see which changes reach the keychain. */
class CountingStore extends MemorySecretStore {
  writes = 0
  override async set(key: string, value: string) {
    this.writes++
    await super.set(key, value)
  }
}

describe('the keychain indexes of accounts and group sessions', () => {
  it('lists an account as active only while its session is in the keychain, and keeps it listed after', async () => {
    const secrets = new MemorySecretStore()
    const accounts = new AccountStore(secrets)
    await accounts.put({ did: A, handle: 'alice.test', scope: 'atproto' })
    expect(await accounts.list()).toEqual([{ did: A, handle: 'alice.test', status: 'needs-sign-in' }])
    await secrets.set(sessionKey(A), '{}')
    expect(await accounts.get(A)).toEqual({ did: A, handle: 'alice.test', status: 'active' })
    await secrets.delete(sessionKey(A))
    expect((await accounts.get(A))?.status).toBe('needs-sign-in')
    expect(await accounts.grantedScope(A)).toBe('atproto')
  })

  it('replaces an entry of the same DID, and survives a new store over the same keychain', async () => {
    const secrets = new MemorySecretStore()
    await new AccountStore(secrets).put({ did: A, handle: 'old.test' })
    const accounts = new AccountStore(secrets)
    await accounts.put({ did: A, handle: 'alice.test' })
    expect((await new AccountStore(secrets).list()).map((a) => a.handle)).toEqual(['alice.test'])
    expect(await accounts.grantedScope(A)).toBeUndefined()
    await accounts.remove(A)
    expect(await new AccountStore(secrets).list()).toEqual([])
  })

  it('keeps the two lists and their sessions apart', async () => {
    const secrets = new MemorySecretStore()
    const accounts = new AccountStore(secrets)
    const groups = new GroupSessionStore(secrets)
    await accounts.put({ did: A, handle: 'alice.test' })
    await groups.put({ did: G, handle: 'group.test', hostUrl: 'https://host.test', scope: groupSessionScope(G) })
    await secrets.set(groupSessionKey(G), '{}')
    expect((await accounts.list()).map((a) => [a.did, a.status])).toEqual([[A, 'needs-sign-in']])
    expect(await groups.list()).toEqual([{ did: G, handle: 'group.test', hostUrl: 'https://host.test', status: 'active', abilities: expect.arrayContaining([expect.objectContaining({ key: 'calendar.create' })]) }])
  })

  it('offers a group session nothing once its session is gone, and records a changed grant only when it changed', async () => {
    const secrets = new CountingStore()
    const groups = new GroupSessionStore(secrets)
    await groups.put({ did: G, handle: null, hostUrl: 'https://host.test', scope: groupSessionScope(G) })
    expect((await groups.get(G))?.abilities).toEqual([])
    await secrets.set(groupSessionKey(G), '{}')
    const before = secrets.writes
    await groups.updateScope(G, groupSessionScope(G))
    expect(secrets.writes).toBe(before)
    await groups.updateScope(G, 'atproto')
    expect(secrets.writes).toBe(before + 1)
    expect((await new GroupSessionStore(secrets).get(G))?.abilities).toEqual([])
    await groups.updateScope('did:plc:unknownaaaaaaaaaaaaaaaaa', 'atproto')
    expect((await groups.list()).map((g) => g.did)).toEqual([G])
  })
})
