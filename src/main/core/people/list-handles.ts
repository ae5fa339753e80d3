import type { CacheDb, CacheSchema } from '../cache/cache-db.js'
import type { Kysely, Transaction } from 'kysely'

/**
 * The lists whose rows name people by DID (their item key is that DID; for reports,
 * only those about an account: a record's key is its at:// address). Hosts need not
 * send handles (the reference host sends none), and one they send is only a claim, so
 * members are looked up too; a handle verified here wins over the host's.
 */
export const KINDS_BY_DID = ['joinRequest', 'invite', 'subject', 'member'] as const

/** A person is looked up again after a day: handles change, rarely. */
export const RECHECK_MS = 24 * 60 * 60 * 1000
/** People looked up per pass, and at once: a huge group fills in over several passes. */
export const PER_PASS = 200
const AT_ONCE = 4

type Db = Kysely<CacheSchema> | Transaction<CacheSchema>

/** Keeps what a both-ways check found for a DID (null: no handle holds), and when. */
export async function rememberHandle(db: Db, did: string, handle: string | null, checkedAt = new Date().toISOString()): Promise<void> {
  await db.insertInto('person').values({ did, handle, checkedAt }).onConflict((oc) => oc.column('did').doUpdateSet({ handle, checkedAt })).execute()
}

/** The handles known for these DIDs (a null handle: checked, and none that holds). */
export async function knownHandles(db: Db, dids: string[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>()
  for (let i = 0; i < dids.length; i += 500) {
    const rows = await db.selectFrom('person').select(['did', 'handle']).where('did', 'in', dids.slice(i, i + 500)).execute()
    for (const r of rows) out.set(r.did, r.handle)
  }
  return out
}

/**
 * Looks up the handles of people in a group's DID-only lists not checked lately, and
 * writes them onto their rows (the lists' triggers move their revisions, so windows
 * showing them refresh). `lookUp` throwing means "could not ask": that person is left
 * for the next pass. Says how many people were due (PER_PASS: there may be more) and
 * how many rows gained or changed a handle.
 */
export async function fillListHandles(db: CacheDb, groupDid: string, lookUp: (did: string) => Promise<string | null>, now = Date.now()): Promise<{ due: number; changed: number }> {
  const stale = new Date(now - RECHECK_MS).toISOString()
  const due = await db
    .selectFrom('item')
    .leftJoin('person', 'person.did', 'item.key')
    .select('item.key as did')
    .distinct()
    .where('item.groupDid', '=', groupDid)
    .where('item.kind', 'in', [...KINDS_BY_DID])
    .where('item.key', 'like', 'did:%')
    .where((eb) => eb.or([eb('person.did', 'is', null), eb('person.checkedAt', '<', stale)]))
    .limit(PER_PASS)
    .execute()
  const found = new Map<string, string | null>()
  const queue = due.map((r) => r.did)
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      for (let did = queue.shift(); did; did = queue.shift()) {
        const handle = await lookUp(did).then(
          (h) => h,
          () => undefined,
        )
        if (handle !== undefined) found.set(did, handle)
      }
    }),
  )
  if (found.size === 0) return { due: due.length, changed: 0 }
  const checkedAt = new Date(now).toISOString()
  const changed = await db.transaction().execute(async (tx) => {
    for (const [did, handle] of found) {
      await rememberHandle(tx, did, handle, checkedAt)
    }
    return putHandlesOnRows(tx, groupDid, found)
  })
  return { due: due.length, changed }
}

/** Writes known handles onto a group's DID-only rows, leaving rows that already say the same. */
async function putHandlesOnRows(tx: Transaction<CacheSchema>, groupDid: string, handles: Map<string, string | null>): Promise<number> {
  let changed = 0
  const dids = [...handles.keys()]
  for (let i = 0; i < dids.length; i += 500) {
    const rows = await tx
      .selectFrom('item')
      .select(['kind', 'key', 'view'])
      .where('groupDid', '=', groupDid)
      .where('kind', 'in', [...KINDS_BY_DID])
      .where('key', 'in', dids.slice(i, i + 500))
      .execute()
    for (const row of rows) {
      const view = JSON.parse(row.view) as { handle?: string | null }
      const handle = handles.get(row.key) ?? null
      if ((view.handle ?? null) === handle) continue
      view.handle = handle
      await tx.updateTable('item').set({ view: JSON.stringify(view) }).where('groupDid', '=', groupDid).where('kind', '=', row.kind).where('key', '=', row.key).execute()
      changed++
    }
  }
  return changed
}
