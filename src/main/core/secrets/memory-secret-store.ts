import type { SecretStore } from './secret-store.js'

/** For unit tests only: the app never constructs it. */
export class MemorySecretStore implements SecretStore {
  private readonly items = new Map<string, string>()
  async get(key: string) {
    return this.items.get(key)
  }
  async set(key: string, value: string) {
    this.items.set(key, value)
  }
  async delete(key: string) {
    this.items.delete(key)
  }
  async keys(prefix = '') {
    return [...this.items.keys()].filter((k) => k.startsWith(prefix))
  }
}
