import type { Kysely, Transaction } from 'kysely'
import type { CacheSchema } from './cache-db.js'

export type ItemKind = 'joinRequest' | 'member' | 'invite' | 'subject' | 'event' | 'space'
type Db = Kysely<CacheSchema> | Transaction<CacheSchema>

export async function readItems<T>(db: Db, groupDid: string, kind: ItemKind): Promise<(T & { pending: boolean })[]> {
  const rows = await db.selectFrom('item').select(['view', 'pendingAction']).where('groupDid', '=', groupDid).where('kind', '=', kind).orderBy('key').execute()
  return rows.map((r) => ({ ...(JSON.parse(r.view) as T), pending: r.pendingAction !== null }))
}

export async function readItem<T>(db: Db, groupDid: string, kind: ItemKind, key: string): Promise<T | undefined> {
  const row = await db.selectFrom('item').select('view').where('groupDid', '=', groupDid).where('kind', '=', kind).where('key', '=', key).executeTakeFirst()
  return row ? (JSON.parse(row.view) as T) : undefined
}

/** Replaces a whole list with what the host said (pending marks are re-applied after). */
export async function replaceItems<T>(tx: Transaction<CacheSchema>, groupDid: string, kind: ItemKind, items: T[], keyOf: (item: T) => string) {
  await tx.deleteFrom('item').where('groupDid', '=', groupDid).where('kind', '=', kind).execute()
  for (let i = 0; i < items.length; i += 200) {
    const chunk = items.slice(i, i + 200)
    if (chunk.length) {
      await tx.insertInto('item').values(chunk.map((item) => ({ groupDid, kind, key: keyOf(item), view: JSON.stringify(item), pendingAction: null }))).execute()
    }
  }
}

/** Writes one item (optimistically, for a queued action) and marks it pending on that action. */
export async function putItem<T>(tx: Db, groupDid: string, kind: ItemKind, key: string, view: T, pendingAction: number | null) {
  await tx
    .insertInto('item')
    .values({ groupDid, kind, key, view: JSON.stringify(view), pendingAction })
    .onConflict((oc) => oc.columns(['groupDid', 'kind', 'key']).doUpdateSet({ view: JSON.stringify(view), pendingAction }))
    .execute()
}

export async function markPending(tx: Db, groupDid: string, kind: ItemKind, key: string, pendingAction: number) {
  await tx.updateTable('item').set({ pendingAction }).where('groupDid', '=', groupDid).where('kind', '=', kind).where('key', '=', key).execute()
}
