import type { Handlers } from './ipc/dispatch.js'
import { AccountStore } from './accounts/account-store.js'
import { KeychainUnavailableError, type SecretStore } from './secrets/secret-store.js'
import type { AppInfo } from '../../shared/ipc/contract.js'

export interface CoreOptions {
  version: string
  shell: AppInfo['shell']
  /** The local network from `.stack/stack.json`, or null for the real AT Protocol network. */
  network: { pdsUrl: string; hostUrl: string; plcUrl: string } | null
  secrets: SecretStore & { probe?: () => Promise<void> }
}

export interface AppCore {
  handlers: Handlers
  close(): Promise<void>
}

/**
 * The main process's logic, free of Electron: both the Electron adapter and the
 * loopback shell construct one and route contract calls to its handlers.
 */
export async function createCore(opts: CoreOptions): Promise<AppCore> {
  let keychain: AppInfo['keychain'] = { available: true, message: null }
  try {
    await opts.secrets.probe?.()
  } catch (err) {
    if (!(err instanceof KeychainUnavailableError)) throw err
    console.error('[core] keychain unavailable:', err.cause)
    keychain = { available: false, message: err.message }
  }
  const accounts = new AccountStore(opts.secrets)

  const handlers: Handlers = {
    'app.getInfo': async () => ({
      name: 'Convene',
      version: opts.version,
      shell: opts.shell,
      network: opts.network
        ? { kind: 'local', pdsUrl: opts.network.pdsUrl, hostUrl: opts.network.hostUrl }
        : { kind: 'atproto', pdsUrl: null, hostUrl: null },
      keychain,
    }),
    'accounts.list': async () => (keychain.available ? accounts.list() : []),
  }
  return { handlers, async close() {} }
}
