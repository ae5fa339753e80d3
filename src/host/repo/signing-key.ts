import type { Secp256k1Keypair } from '@atproto/crypto'
import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { keyFromBytes } from '../identity/plc.js'
import { groupKeyContext, unseal } from '../secrets/sealed.js'

/**
 * The key that signs the group's repo commits: the one its DID document names as
 * `verificationMethods.atproto` (createGroup mints the DID with the group's one key as
 * both rotation and signing key), unsealed with the host key for this commit only.
 */
export async function groupSigningKey(db: Kysely<HostDatabaseSchema>, hostKey: Buffer, groupDid: string): Promise<Secp256k1Keypair> {
  const row = await db.selectFrom('group').select('rotationKeySealed').where('did', '=', groupDid).executeTakeFirstOrThrow()
  return keyFromBytes(unseal(hostKey, row.rotationKeySealed, groupKeyContext(groupDid)))
}
