import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { StackFile } from '../../shared/stack-file.js'

/** The local network from `.stack/stack.json`, or null for the real AT Protocol network. */
export type LocalNetwork = { pdsUrl: string; hostUrl: string; plcUrl: string; hostAud: string } | null

/**
 * Reads the local network's description (`npm run stack` writes it) into the core's
 * network settings. Without one the app talks to the real AT Protocol network.
 */
export function loadLocalNetwork(stackFile: string | undefined): LocalNetwork {
  if (!stackFile) return null
  let stack: StackFile
  try {
    stack = JSON.parse(fs.readFileSync(stackFile, 'utf8')) as StackFile
  } catch (err) {
    throw new Error(`Cannot read the local network's description at ${stackFile}: ${(err as Error).message}. Is "npm run stack" running?`)
  }
  return { pdsUrl: stack.pds, hostUrl: stack.host.url, plcUrl: stack.plc, hostAud: stack.host.aud }
}

/** The keychain service name items are filed under; tests use their own. */
export const keychainService = () => process.env.CONVENE_KEYCHAIN_SERVICE || 'Convene'

/**
 * Whether to hold live connections to group hosts: yes, unless CONVENE_LIVE_UPDATES=off
 * (tests of what an app without them does, such as the 30-second catch-up; troubleshooting).
 */
export const liveUpdatesWanted = () => process.env.CONVENE_LIVE_UPDATES !== 'off'

/**
 * How long the core waits for a group host to answer one request before it calls the
 * host not answering (a transient failure: the outbox keeps the change and backs off,
 * a sync pass moves on). CONVENE_HOST_TIMEOUT_MS shortens it for tests of a hung host.
 */
export const HOST_TIMEOUT_MS = 15_000
export const hostTimeoutMs = () => limitFrom(process.env.CONVENE_HOST_TIMEOUT_MS)

/**
 * The same for the person's own server (their PDS: service auth, their own records).
 * Apart from the host's, so a test that hangs a group host with a short limit does not
 * hold the PDS beside it to that limit too (a PDS slow under load was then called not
 * answering). CONVENE_SERVER_TIMEOUT_MS shortens it for tests of a hung server.
 */
export const ownServerTimeoutMs = () => limitFrom(process.env.CONVENE_SERVER_TIMEOUT_MS)

const limitFrom = (value: string | undefined) => {
  const ms = Number(value)
  return Number.isFinite(ms) && ms > 0 ? ms : HOST_TIMEOUT_MS
}

/** The loopback shell's data folder (Electron uses its userData folder instead). */
export const defaultDataDir = () =>
  process.env.CONVENE_DATA_DIR || path.join(process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share'), 'convene')
