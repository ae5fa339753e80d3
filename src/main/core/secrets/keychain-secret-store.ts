import keytar from 'keytar'
import { KeychainUnavailableError, type SecretStore } from './secret-store.js'

/**
 * The OS keychain through keytar (Secret Service on Linux, Keychain on macOS,
 * Credential Vault on Windows). Every item is filed under one service name.
 */
export class KeychainSecretStore implements SecretStore {
  constructor(readonly service: string) {}

  /** Fails with a KeychainUnavailableError when no keychain answers. */
  async probe(): Promise<void> {
    await this.wrap(() => keytar.findCredentials(this.service))
  }

  async get(key: string) {
    return (await this.wrap(() => keytar.getPassword(this.service, key))) ?? undefined
  }

  async set(key: string, value: string) {
    await this.wrap(() => keytar.setPassword(this.service, key, value))
  }

  async delete(key: string) {
    await this.wrap(() => keytar.deletePassword(this.service, key))
  }

  async keys(prefix = '') {
    const all = await this.wrap(() => keytar.findCredentials(this.service))
    return all.map((c) => c.account).filter((k) => k.startsWith(prefix))
  }

  private async wrap<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (err) {
      throw new KeychainUnavailableError(err)
    }
  }
}
