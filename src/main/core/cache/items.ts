import type { Kysely, Transaction } from 'kysely'
import type { CacheSchema } from './cache-db.js'

export type ItemKind = 'joinRequest' | 'member' | 'invite' | 'subject' | 'event' | 'space' | 'myJoinRequest'
type Db = Kysely<CacheSchema> | Transaction<CacheSchema>

export async function readItems<T>(db: Db, groupDid: string, kind: ItemKind): Promise<(T & { pending: boolean })[]> {
  const rows = await db.selectFrom('item').select(['view', 'pendingAction']).where('groupDid', '=', groupDid).where('kind', '=', kind).orderBy('key').execute()
  return rows.map((r) => ({ ...(JSON.parse(r.view) as T), pending: r.pendingAction !== null }))
}

/** The items of a list with these keys (those that still exist), in no particular order. */
export async function readItemsByKey<T>(db: Db, groupDid: string, kind: ItemKind, keys: string[]): Promise<(T & { pending: boolean })[]> {
  const out: (T & { pending: boolean })[] = []
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db.selectFrom('item').select(['view', 'pendingAction']).where('groupDid', '=', groupDid).where('kind', '=', kind).where('key', 'in', keys.slice(i, i + 500)).execute()
    for (const r of rows) out.push({ ...(JSON.parse(r.view) as T), pending: r.pendingAction !== null })
  }
  return out
}

export async function readItem<T>(db: Db, groupDid: string, kind: ItemKind, key: string): Promise<T | undefined> {
  const row = await db.selectFrom('item').select('view').where('groupDid', '=', groupDid).where('kind', '=', kind).where('key', '=', key).executeTakeFirst()
  return row ? (JSON.parse(row.view) as T) : undefined
}

/**
 * Replaces a whole list with what the host said (pending marks are re-applied after).
 * Only rows that changed are written, so a sync that brings nothing new leaves the
 * list's revision (migration 002) where it was, and the window keeps what it shows.
 */
export async function replaceItems<T>(tx: Transaction<CacheSchema>, groupDid: string, kind: ItemKind, items: T[], keyOf: (item: T) => string) {
  const rows = await tx.selectFrom('item').select(['key', 'view', 'pendingAction']).where('groupDid', '=', groupDid).where('kind', '=', kind).execute()
  const before = new Map(rows.map((r) => [r.key, r]))
  const changed: { groupDid: string; kind: string; key: string; view: string; pendingAction: null }[] = []
  for (const item of items) {
    const key = keyOf(item)
    const view = JSON.stringify(item)
    const old = before.get(key)
    before.delete(key)
    if (old && old.view === view && old.pendingAction === null) continue
    changed.push({ groupDid, kind, key, view, pendingAction: null })
  }
  const gone = [...before.keys()]
  for (let i = 0; i < gone.length; i += 200) {
    await tx.deleteFrom('item').where('groupDid', '=', groupDid).where('kind', '=', kind).where('key', 'in', gone.slice(i, i + 200)).execute()
  }
  for (let i = 0; i < changed.length; i += 200) {
    await tx
      .insertInto('item')
      .values(changed.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['groupDid', 'kind', 'key']).doUpdateSet((eb) => ({ view: eb.ref('excluded.view'), pendingAction: null })))
      .execute()
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
