import { Secp256k1Keypair } from '@atproto/crypto'
import type { HostDb } from '../db/index.js'
import { GROUPS_SERVICE_ID, GROUPS_SERVICE_TYPE, keyFromHex, keyToHex, mintPlcDid } from './plc.js'

export interface ServiceIdentity {
  /** The host's service DID; service-auth tokens for it carry `aud` = `${did}#groups`. */
  did: string
  aud: string
  signingKey: Secp256k1Keypair
}

async function secret(db: HostDb, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('host_secret').select('value').where('name', '=', name).executeTakeFirst()
  return row?.value
}

/**
 * Loads the host's service identity from its database, or mints one on first start: a
 * did:plc whose `#groups` service points at `publicUrl`. A DID given on the command line
 * is used as is (its document is then the operator's business).
 */
export async function loadServiceIdentity(
  db: HostDb,
  opts: { plcUrl: string; publicUrl: string; serviceDid?: string },
): Promise<ServiceIdentity> {
  let signingHex = await secret(db, 'signingKey')
  if (!signingHex) {
    signingHex = await keyToHex(await Secp256k1Keypair.create({ exportable: true }))
    await db.insertInto('host_secret').values({ name: 'signingKey', value: signingHex }).execute()
  }
  const signingKey = await keyFromHex(signingHex)

  let did = opts.serviceDid ?? (await secret(db, 'serviceDid'))
  if (!did) {
    const rotationKey = await Secp256k1Keypair.create({ exportable: true })
    did = await mintPlcDid({
      plcUrl: opts.plcUrl,
      rotationKey,
      signingKey,
      services: { [GROUPS_SERVICE_ID]: { type: GROUPS_SERVICE_TYPE, endpoint: opts.publicUrl } },
    })
    await db
      .insertInto('host_secret')
      .values([
        { name: 'serviceDid', value: did },
        { name: 'serviceRotationKey', value: await keyToHex(rotationKey) },
      ])
      .execute()
  }
  return { did, aud: `${did}#${GROUPS_SERVICE_ID}`, signingKey }
}
