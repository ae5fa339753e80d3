import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startIdentityNetwork, type IdentityNetwork, type IdentityNetworkAddresses } from '../../src/stack/stack.js'
import { buildHostBundle, HOST_BUNDLE_ENV } from '../../src/stack/host-bundle.js'

/**
 * Vitest global setup (vitest.config.ts, vitest.postgres.config.ts): one PLC directory
 * and one real PDS, with the lexicons published, for the whole run. Each test file still
 * gets a group host and demo people of its own (test/support/local-network.ts), made on
 * this PDS in about a second, where a whole network took ten: starting the PDS and
 * publishing the lexicons was most of a file's set-up. Workers inherit
 * CONVENE_TEST_IDENTITY, as they inherit CONVENE_TEST_PG_URL.
 *
 * It also bundles the group host once for the run (src/stack/host-bundle.ts): the host
 * processes the files start come up in about half the time tsx takes (CONVENE_HOST_BUNDLE).
 */
let network: IdentityNetwork | undefined
let dataDir: string | undefined
let bundle: Awaited<ReturnType<typeof buildHostBundle>> | undefined

export const SHARED_IDENTITY_ENV = 'CONVENE_TEST_IDENTITY'

export async function setup(): Promise<void> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-test-identity-'))
  ;[network, bundle] = await Promise.all([startIdentityNetwork(dataDir), buildHostBundle()])
  process.env[HOST_BUNDLE_ENV] = bundle.file
  const addresses: IdentityNetworkAddresses = { plc: network.plc, pds: network.pds, lexiconAuthority: network.lexiconAuthority }
  process.env[SHARED_IDENTITY_ENV] = JSON.stringify(addresses)
}

export async function teardown(): Promise<void> {
  await network?.stop()
  bundle?.remove()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
}

/** The run's shared PLC and PDS, when a global setup started them. */
export function sharedIdentity(): IdentityNetworkAddresses | undefined {
  const text = process.env[SHARED_IDENTITY_ENV]
  return text ? (JSON.parse(text) as IdentityNetworkAddresses) : undefined
}
