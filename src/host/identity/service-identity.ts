import { Secp256k1Keypair } from '@atproto/crypto'
import type { HostDb } from '../db/index.js'
import { GROUPS_SERVICE_ID, GROUPS_SERVICE_TYPE, keyFromBytes, keyToBytes, mintPlcDid } from './plc.js'
import { insertSecret, readSecret } from '../secrets/stored-secrets.js'

export interface ServiceIdentity {
  /** The host's service DID; service-auth tokens for it carry `aud` = `${did}#groups`. */
  did: string
  aud: string
  signingKey: Secp256k1Keypair
}

/** The service DID is public, so kept readable; the keys are sealed. */
async function storedServiceDid(db: HostDb): Promise<string | undefined> {
  const row = await db.selectFrom('host_secret').select('value').where('name', '=', 'serviceDid').executeTakeFirst()
  return row?.value
}

/**
 * Loads the host's service identity from its database, or mints one on first start: a
 * did:plc whose `#groups` service points at `publicUrl`. A DID given on the command line
 * is used as is (its document is then the operator's business).
 */
export async function loadServiceIdentity(
  db: HostDb,
  opts: { plcUrl: string; publicUrl: string; serviceDid?: string; hostKey: Buffer },
): Promise<ServiceIdentity> {
  let signingBytes = await readSecret(db, opts.hostKey, 'signingKey')
  if (!signingBytes) {
    signingBytes = await keyToBytes(await Secp256k1Keypair.create({ exportable: true }))
    await insertSecret(db, opts.hostKey, 'signingKey', signingBytes)
  }
  const signingKey = await keyFromBytes(signingBytes)

  let did = opts.serviceDid ?? (await storedServiceDid(db))
  if (!did) {
    const rotationKey = await Secp256k1Keypair.create({ exportable: true })
    did = await mintPlcDid({
      plcUrl: opts.plcUrl,
      rotationKey,
      signingKey,
      services: { [GROUPS_SERVICE_ID]: { type: GROUPS_SERVICE_TYPE, endpoint: opts.publicUrl } },
    })
    await db.insertInto('host_secret').values({ name: 'serviceDid', value: did }).execute()
    await insertSecret(db, opts.hostKey, 'serviceRotationKey', await keyToBytes(rotationKey))
  }
  return { did, aud: `${did}#${GROUPS_SERVICE_ID}`, signingKey }
}
