import type { Kysely } from 'kysely'

/**
 * Which records of a space name which of its images (issue 35), as the PDS keeps
 * `record_blob`: written with every record stored, so an upload, a read of an image and
 * the sweep of images no record names find them by index, never by matching text in
 * every record's JSON. Filled here from the records already stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('record_blob')
    .addColumn('space', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('uri', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('record_blob_pk', ['space', 'cid', 'uri'])
    .execute()
  await db.schema.createIndex('record_blob_uri').on('record_blob').column('uri').execute()

  const store = db as unknown as Kysely<{ record: { uri: string; space: string; value: string }; record_blob: { space: string; cid: string; uri: string } }>
  const PAGE = 500
  let after = ''
  for (;;) {
    const rows = await store.selectFrom('record').select(['uri', 'space', 'value']).where('uri', '>', after).orderBy('uri').limit(PAGE).execute()
    for (const row of rows) {
      const cids = [...new Set(linksIn(JSON.parse(row.value) as unknown))]
      if (cids.length) await store.insertInto('record_blob').values(cids.map((cid) => ({ space: row.space, cid, uri: row.uri }))).execute()
    }
    if (rows.length < PAGE) break
    after = rows[rows.length - 1]!.uri
  }
}

/** The CIDs of the blob refs in a record's stored JSON (`{$type: 'blob', ref: {$link}}`); a migration keeps its own copy of the walk. */
function linksIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const v of value) linksIn(v, found)
  } else if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>
    const link = (v.ref as { $link?: unknown } | undefined)?.$link
    if (v.$type === 'blob' && typeof link === 'string') found.push(link)
    else for (const inner of Object.values(v)) linksIn(inner, found)
  }
  return found
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('record_blob').execute()
}
