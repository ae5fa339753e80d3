import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { parseSpaceAddress, parseSpaceRecordAddress } from '../../shared/space-address.js'

type Db = Kysely<HostDatabaseSchema> | Transaction<HostDatabaseSchema>

/**
 * The space a record address belongs to, when it names a record in one of this group's
 * spaces (`<space>/<repo>/<collection>/<rkey>`): only those can be taken down, since
 * only those does the host serve.
 */
export function spaceOfRecord(groupDid: string, uri: string): string | null {
  const record = parseSpaceRecordAddress(uri)
  return record && parseSpaceAddress(record.space)?.authority === groupDid ? record.space : null
}

/** Which of these subject keys (record addresses, DIDs) are taken down in the group. */
export async function takenDownAmong(db: Db, groupDid: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set()
  const rows = await db.selectFrom('takedown').select('subjectKey').where('groupDid', '=', groupDid).where('subjectKey', 'in', keys).execute()
  return new Set(rows.map((r) => r.subjectKey))
}

/**
 * A record taken down hides the images it names for as long as the takedown stands
 * (blob_takedown): whatever names them later, a new record quoting a CID or the record
 * deleted, they stay hidden until this takedown is reversed (issue 35).
 */
export async function hideImagesOf(tx: Transaction<HostDatabaseSchema>, uri: string): Promise<void> {
  const images = await tx.selectFrom('record_blob').select(['space', 'cid', 'uri']).where('uri', '=', uri).execute()
  if (images.length) await tx.insertInto('blob_takedown').values(images).onConflict((oc) => oc.doNothing()).execute()
}

/** The takedown of `uri` reversed: the images it hid show again, unless another takedown still hides them. */
export async function showImagesOf(tx: Transaction<HostDatabaseSchema>, uri: string): Promise<void> {
  await tx.deleteFrom('blob_takedown').where('uri', '=', uri).execute()
}
