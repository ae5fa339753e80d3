import path from 'node:path'
import { createCore, type AppCore } from '../core/app-core.js'
import { loadLocalNetwork, keychainService, defaultDataDir } from '../core/network.js'
import { KeychainSecretStore } from '../core/secrets/keychain-secret-store.js'
import { startLoopbackShell, type LoopbackShell } from './server.js'

export const DEFAULT_RENDERER_DIR = path.resolve(import.meta.dirname, '../../../out/renderer')

/** The core in Node behind the loopback shell: what `npm start` runs without Electron. */
export async function launchLoopbackApp(opts: {
  stackFile?: string
  port?: number
  rendererDir?: string
  version: string
  /** Where caches live (default: CONVENE_DATA_DIR or ~/.local/share/convene). */
  dataDir?: string
  /** Keychain service name (default: CONVENE_KEYCHAIN_SERVICE or "Convene"). */
  keychainService?: string
}): Promise<{ core: AppCore; shell: LoopbackShell; close(): Promise<void> }> {
  const core = await createCore({
    version: opts.version,
    shell: 'loopback',
    network: loadLocalNetwork(opts.stackFile),
    secrets: new KeychainSecretStore(opts.keychainService ?? keychainService()),
    dataDir: opts.dataDir ?? defaultDataDir(),
  })
  const shell = await startLoopbackShell({
    handlers: core.handlers,
    rendererDir: opts.rendererDir ?? DEFAULT_RENDERER_DIR,
    port: opts.port,
  })
  return {
    core,
    shell,
    async close() {
      await shell.close()
      await core.close()
    },
  }
}
