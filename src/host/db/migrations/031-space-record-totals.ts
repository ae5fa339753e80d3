import type { Kysely } from 'kysely'

/**
 * How many of the group's records each space holds and their size (issue 35: a space took
 * 50 MB of one account's records, with no bound): kept with every write and delete, so a
 * write checks the space's bound by reading one row, never by summing the space's records.
 * Filled here from the records already stored; a size is the record's JSON in UTF-8 bytes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('space').addColumn('recordCount', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('space').addColumn('recordBytes', 'integer', (c) => c.notNull().defaultTo(0)).execute()

  const store = db as unknown as Kysely<{ record: { uri: string; space: string; value: string }; space: { uri: string; recordCount: number; recordBytes: number } }>
  const totals = new Map<string, { count: number; bytes: number }>()
  const PAGE = 500
  let after = ''
  for (;;) {
    const rows = await store.selectFrom('record').select(['uri', 'space', 'value']).where('uri', '>', after).orderBy('uri').limit(PAGE).execute()
    for (const row of rows) {
      const t = totals.get(row.space) ?? { count: 0, bytes: 0 }
      t.count++
      t.bytes += Buffer.byteLength(row.value)
      totals.set(row.space, t)
    }
    if (rows.length < PAGE) break
    after = rows[rows.length - 1]!.uri
  }
  for (const [space, t] of totals) await store.updateTable('space').set({ recordCount: t.count, recordBytes: t.bytes }).where('uri', '=', space).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('space').dropColumn('recordBytes').execute()
  await db.schema.alterTable('space').dropColumn('recordCount').execute()
}
