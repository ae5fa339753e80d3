import path from 'node:path'
import { createCore, type AppCore } from '../core/app-core.js'
import { loadLocalNetwork, keychainService, defaultDataDir, liveUpdatesWanted } from '../core/network.js'
import { KeychainSecretStore } from '../core/secrets/keychain-secret-store.js'
import { installLogSink } from '../core/log/log.js'
import { fileLogSink } from '../core/log/file-sink.js'
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
  /** Live connections to group hosts (default: unless CONVENE_LIVE_UPDATES=off). */
  liveUpdates?: boolean
}): Promise<{ core: AppCore; shell: LoopbackShell; close(): Promise<void> }> {
  const dataDir = opts.dataDir ?? defaultDataDir()
  // The log lives in the data folder here (no OS log folder without Electron), echoed
  // to the terminal `npm start` runs in.
  const logFolder = path.join(dataDir, 'logs')
  installLogSink(fileLogSink(logFolder, { echo: true }))
  const core = await createCore({
    version: opts.version,
    shell: 'loopback',
    network: loadLocalNetwork(opts.stackFile),
    secrets: new KeychainSecretStore(opts.keychainService ?? keychainService()),
    dataDir,
    logFolder,
    liveUpdates: opts.liveUpdates ?? liveUpdatesWanted(),
  })
  const shell = await startLoopbackShell({
    handlers: core.handlers,
    notices: core.notices,
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
