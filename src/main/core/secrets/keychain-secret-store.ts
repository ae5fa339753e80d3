import keytar from 'keytar'
import { KeychainUnavailableError, type SecretStore } from './secret-store.js'

/**
 * The OS keychain through keytar (Secret Service on Linux, Keychain on macOS,
 * Credential Vault on Windows). Every item is filed under one service name.
 */
export class KeychainSecretStore implements SecretStore {
  /**
   * The item names, read once: keytar can list items only with their values
   * (findCredentials), and the window asks which accounts have a session on every
   * notice, so reading every session (tokens, DPoP keys) out of the keychain each time
   * is both slow and needless. This process is the items' only writer (the shells hold a
   * single-instance lock), so set and delete keep the names current.
   */
  private names?: Promise<Set<string>>

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
    ;(await this.known().catch(() => null))?.add(key)
  }

  async delete(key: string) {
    await this.wrap(() => keytar.deletePassword(this.service, key))
    ;(await this.known().catch(() => null))?.delete(key)
  }

  async keys(prefix = '') {
    return [...(await this.known())].filter((k) => k.startsWith(prefix))
  }

  private known(): Promise<Set<string>> {
    this.names ??= this.wrap(() => keytar.findCredentials(this.service)).then(
      (all) => new Set(all.map((c) => c.account)),
      (err: unknown) => {
        this.names = undefined
        throw err
      },
    )
    return this.names
  }

  private async wrap<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (err) {
      throw new KeychainUnavailableError(err)
    }
  }
}
