import { sql, type Kysely } from 'kysely'
import { isPostgres } from './portable.js'

/**
 * Bounds on what a group's public repo keeps (issue 35 #3: any account owns groups of its
 * own, and their repos took images, records and firehose frames without limit):
 * - `repo_root` keeps the repo's totals (records and their bytes, firehose frames and
 *   theirs), updated with every commit and every prune, so a write checks its bound by
 *   reading one row;
 * - `repo_record.size` is each record's encoded size, for those totals;
 * - `repo_record_blob` says which record names which image, as the PDS keeps
 *   `record_blob`: getBlob serves only images a record names, and an upload drops those no
 *   record named within an hour, by index;
 * - `repo_event` is indexed by group, so a group's oldest frames are found without a scan.
 * Filled here from what is stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['recordCount', 'recordBytes', 'frameCount', 'frameBytes']) {
    await db.schema.alterTable('repo_root').addColumn(column, 'integer', (c) => c.notNull().defaultTo(0)).execute()
  }
  await db.schema.alterTable('repo_record').addColumn('size', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema
    .createTable('repo_record_blob')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('rkey', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('repo_record_blob_pk', ['groupDid', 'cid', 'collection', 'rkey'])
    .execute()
  await db.schema.createIndex('repo_record_blob_record').on('repo_record_blob').columns(['groupDid', 'collection', 'rkey']).execute()
  await db.schema.createIndex('repo_event_group').on('repo_event').columns(['groupDid', 'seq']).execute()

  await sql`UPDATE repo_record SET size = (SELECT length(b.content) FROM repo_block b WHERE b."groupDid" = repo_record."groupDid" AND b.cid = repo_record.cid)
            WHERE EXISTS (SELECT 1 FROM repo_block b WHERE b."groupDid" = repo_record."groupDid" AND b.cid = repo_record.cid)`.execute(db)
  await sql`UPDATE repo_root SET
      "recordCount" = (SELECT count(*) FROM repo_record r WHERE r."groupDid" = repo_root."groupDid"),
      "recordBytes" = (SELECT coalesce(sum(r.size), 0) FROM repo_record r WHERE r."groupDid" = repo_root."groupDid"),
      "frameCount" = (SELECT count(*) FROM repo_event e WHERE e."groupDid" = repo_root."groupDid"),
      "frameBytes" = (SELECT coalesce(sum(length(e.frame)), 0) FROM repo_event e WHERE e."groupDid" = repo_root."groupDid")`.execute(db)

  // Which record names which image: a record's block holds each image it names as the
  // image CID's bytes (a DAG-CBOR link), so each image kept is looked for in the blocks of
  // its group's records. Once, here; from now on the commit writes the index.
  const store = db as unknown as Kysely<{ repo_blob: { groupDid: string; cid: string }; repo_record_blob: { groupDid: string; cid: string; collection: string; rkey: string } }>
  const contains = isPostgres(db) ? (needle: Buffer) => sql`position(${needle} in b.content) > 0` : (needle: Buffer) => sql`instr(b.content, ${needle}) > 0`
  for (const image of await store.selectFrom('repo_blob').select(['groupDid', 'cid']).execute()) {
    const bytes = cidBytes(image.cid)
    if (!bytes) continue
    const { rows } = await sql<{ collection: string; rkey: string }>`SELECT r.collection, r.rkey FROM repo_record r
        JOIN repo_block b ON b."groupDid" = r."groupDid" AND b.cid = r.cid
        WHERE r."groupDid" = ${image.groupDid} AND ${contains(bytes)}`.execute(db)
    if (rows.length) await store.insertInto('repo_record_blob').values(rows.map((r) => ({ groupDid: image.groupDid, cid: image.cid, ...r }))).execute()
  }
}

/**
 * The binary form of a CIDv1 written in base32 (multibase prefix "b"), as repo_blob keeps
 * them; null for any other form. Written out here because a migration imports only kysely
 * (so later changes to a library cannot change what it did): RFC 4648 base32, lowercase,
 * unpadded.
 */
function cidBytes(text: string): Buffer | null {
  if (!text.startsWith('b')) return null
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  const out: number[] = []
  let bits = 0
  let value = 0
  for (const ch of text.slice(1)) {
    const v = alphabet.indexOf(ch)
    if (v < 0) return null
    value = ((value << 5) | v) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out.push((value >>> bits) & 0xff)
    }
  }
  return Buffer.from(out)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('repo_event_group').execute()
  await db.schema.dropTable('repo_record_blob').execute()
  await db.schema.alterTable('repo_record').dropColumn('size').execute()
  for (const column of ['frameBytes', 'frameCount', 'recordBytes', 'recordCount']) await db.schema.alterTable('repo_root').dropColumn(column).execute()
}
