import { Secp256k1Keypair } from '@atproto/crypto'
import { GROUPS_SERVICE_ID, GROUPS_SERVICE_TYPE, mintPlcDid } from '../../src/host/identity/plc.js'

/**
 * A did:plc on the test network's PLC whose atproto signing key the test holds, so it
 * can hand-sign service-auth tokens (for negative auth cases only).
 */
export async function mintControlledDid(plcUrl: string): Promise<{ did: string; key: Secp256k1Keypair }> {
  const key = await Secp256k1Keypair.create({ exportable: true })
  const did = await mintPlcDid({ plcUrl, rotationKey: key, signingKey: key, services: {} })
  return { did, key }
}

/** A group-like DID whose `#groups` service names another host (for `NotHosted`). */
export async function mintForeignGroup(plcUrl: string, hostUrl = 'http://127.0.0.1:9'): Promise<string> {
  const key = await Secp256k1Keypair.create({ exportable: true })
  return await mintPlcDid({
    plcUrl,
    rotationKey: key,
    signingKey: key,
    handle: 'elsewhere.groups.test',
    services: { [GROUPS_SERVICE_ID]: { type: GROUPS_SERVICE_TYPE, endpoint: hostUrl } },
  })
}
