import type { NodeSavedSession, NodeSavedSessionStore, NodeSavedState, NodeSavedStateStore } from '@atproto/oauth-client-node'
import type { SecretStore } from '../secrets/secret-store.js'
import { sessionKey } from './account-store.js'

/**
 * OAuth sessions, with their DPoP private keys, live only in the keychain: the
 * oauth-client hands us `dpopJwk` including its private part `d`.
 */
export function keychainSessionStore(
  secrets: SecretStore,
  onDeleted?: (did: string) => void,
  /** The keychain item per DID (group sessions keep theirs apart from accounts'). */
  keyOf: (did: string) => string = sessionKey,
): NodeSavedSessionStore {
  return {
    async get(did) {
      const raw = await secrets.get(keyOf(did))
      return raw ? (JSON.parse(raw) as NodeSavedSession) : undefined
    },
    async set(did, session) {
      await secrets.set(keyOf(did), JSON.stringify(session))
    },
    async del(did) {
      await secrets.delete(keyOf(did))
      onDeleted?.(did)
    },
  }
}

/**
 * Sign-in attempts in flight. They live in memory only: an attempt does not survive
 * the app quitting (the person just signs in again), so its DPoP key is never stored.
 */
export function memoryStateStore(): NodeSavedStateStore {
  const states = new Map<string, NodeSavedState>()
  return {
    get: async (key) => states.get(key),
    set: async (key, value) => void states.set(key, value),
    del: async (key) => void states.delete(key),
  }
}
