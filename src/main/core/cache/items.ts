import type { Kysely, Transaction } from 'kysely'
import type { CacheSchema } from './cache-db.js'

export type ItemKind = 'joinRequest' | 'member' | 'invite' | 'subject' | 'event' | 'space' | 'myJoinRequest' | 'attendance'
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
      .onConflict((oc) => oc.columns(['groupDid', 'kind', 'key']).doUpdateSet((eb) => ({ view: eb.ref('excluded.view'), pendingAction: null, prior: null })))
      .execute()
  }
}

/** A row as it was before a queued action changed it in place: what taking that action back restores. */
export interface PriorRow {
  view: string
  pendingAction: number | null
  prior: string | null
}

/**
 * Writes one item (optimistically, for a queued action) and marks it pending on that
 * action, keeping what the row was so the action can be taken back (restorePrior). A
 * write that is not pending (the host's word) keeps nothing.
 */
export async function putItem<T>(tx: Db, groupDid: string, kind: ItemKind, key: string, view: T, pendingAction: number | null) {
  let prior: string | null = null
  if (pendingAction !== null) {
    const old = await tx.selectFrom('item').select(['view', 'pendingAction', 'prior']).where('groupDid', '=', groupDid).where('kind', '=', kind).where('key', '=', key).executeTakeFirst()
    if (old) prior = JSON.stringify(old satisfies PriorRow)
  }
  await tx
    .insertInto('item')
    .values({ groupDid, kind, key, view: JSON.stringify(view), pendingAction, prior })
    .onConflict((oc) => oc.columns(['groupDid', 'kind', 'key']).doUpdateSet({ view: JSON.stringify(view), pendingAction, prior }))
    .execute()
}

const stillQueued = async (tx: Db, id: number) =>
  !!(await tx.selectFrom('outbox').select('id').where('id', '=', id).where('state', 'in', ['queued', 'sending']).executeTakeFirst())

/**
 * Puts back the rows a cancelled action changed in place, as they were before it. False
 * when it cannot (a later action changed the row on top, or nothing was kept): the
 * caller then has the group read again.
 */
export async function restorePrior(tx: Db, groupDid: string, pendingAction: number): Promise<boolean> {
  const rows = await tx.selectFrom('item').select(['kind', 'key', 'prior']).where('groupDid', '=', groupDid).where('pendingAction', '=', pendingAction).execute()
  if (rows.length === 0) return false
  let all = true
  for (const row of rows) {
    if (row.prior === null) {
      all = false
      continue
    }
    const was = JSON.parse(row.prior) as PriorRow
    // The action under it may have settled meanwhile: then the row is no longer pending on it.
    if (was.pendingAction !== null && !(await stillQueued(tx, was.pendingAction))) was.pendingAction = null
    await tx.updateTable('item').set(was).where('groupDid', '=', groupDid).where('kind', '=', row.kind).where('key', '=', row.key).execute()
  }
  return all
}

export async function markPending(tx: Db, groupDid: string, kind: ItemKind, key: string, pendingAction: number) {
  await tx.updateTable('item').set({ pendingAction }).where('groupDid', '=', groupDid).where('kind', '=', kind).where('key', '=', key).execute()
}
