import type { Kysely, Transaction } from 'kysely'
import type { CacheDb, CacheSchema } from '../cache/cache-db.js'
import { askAbout, peopleDue, rewriteRowsNaming } from './people-pass.js'

/*
 * Hosts need not send handles (the reference host sends none), and one they send is only
 * a claim, so members are looked up too; a handle verified here wins over the host's.
 */

/** A person is looked up again after a day: handles change, rarely. */
export const RECHECK_MS = 24 * 60 * 60 * 1000
/** People looked up per pass: a huge group fills in over several passes. */
export const PER_PASS = 200

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
  const due = await peopleDue(db, groupDid, 'person', new Date(now - RECHECK_MS).toISOString(), PER_PASS)
  const found = await askAbout(due, lookUp)
  if (found.size === 0) return { due: due.length, changed: 0 }
  const checkedAt = new Date(now).toISOString()
  const changed = await db.transaction().execute(async (tx) => {
    for (const [did, handle] of found) await rememberHandle(tx, did, handle, checkedAt)
    return rewriteRowsNaming(tx, groupDid, [...found.keys()], (view, did) => {
      const handle = found.get(did) ?? null
      if ((view.handle ?? null) === handle) return false
      view.handle = handle
      return true
    })
  })
  return { due: due.length, changed }
}
