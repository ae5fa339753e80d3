/**
 * Where sessions and their DPoP keys live. The only implementation the app ships is the
 * OS keychain; there is deliberately no plaintext fallback.
 */
export interface SecretStore {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
  /** Keys under a prefix, for listing (values are not read). */
  keys(prefix?: string): Promise<string[]>
}

export class KeychainUnavailableError extends Error {
  readonly code = 'KeychainUnavailable'
  constructor(cause: unknown) {
    super(
      'Convene keeps your sign-ins in the system keychain, and none is available. ' +
        'Start your desktop keyring (on Linux: GNOME Keyring or KWallet with the Secret Service API), then open Convene again.',
      { cause },
    )
    this.name = 'KeychainUnavailableError'
  }
}
