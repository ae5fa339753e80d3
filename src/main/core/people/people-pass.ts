import type { Transaction } from 'kysely'
import type { CacheDb, CacheSchema } from '../cache/cache-db.js'

/**
 * What the handle pass (list-handles.ts) and the profile pass (profile-cache.ts) share:
 * which people in a group's lists are due, asking about them a few at a time, and
 * rewriting the rows that name them. Each pass keeps its own table and row fields.
 */

/**
 * The lists whose rows name people by DID (their item key is that DID; for reports,
 * only those about an account: a record's key is its at:// address).
 */
export const KINDS_BY_DID = ['joinRequest', 'invite', 'subject', 'member'] as const

/** How many people are asked about at once: their PDSes and PLC are other people's servers. */
const AT_ONCE = 4

/** The DIDs in a group's DID-only lists that `table` has no row for, or one checked before `stale`. */
export async function peopleDue(db: CacheDb, groupDid: string, table: 'person' | 'profile', stale: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('item')
    // Both tables key on `did` and keep `checkedAt`: typed as one, under one alias.
    .leftJoin(`${table} as seen` as 'person as seen', 'seen.did', 'item.key')
    .select('item.key as did')
    .distinct()
    .where('item.groupDid', '=', groupDid)
    .where('item.kind', 'in', [...KINDS_BY_DID])
    .where('item.key', 'like', 'did:%')
    .where((eb) => eb.or([eb('seen.did', 'is', null), eb('seen.checkedAt', '<', stale)]))
    .limit(limit)
    .execute()
  return rows.map((r) => r.did)
}

/**
 * Asks `ask` about each DID, AT_ONCE at a time. A throw means "could not ask": that
 * person is left out of the answer (and so left for the next pass).
 */
export async function askAbout<T>(dids: string[], ask: (did: string) => Promise<T>): Promise<Map<string, T>> {
  const found = new Map<string, T>()
  const queue = [...dids]
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      for (let did = queue.shift(); did; did = queue.shift()) {
        const answer = await ask(did).then(
          (a) => ({ a }),
          () => undefined,
        )
        if (answer) found.set(did, answer.a)
      }
    }),
  )
  return found
}

/**
 * Rewrites a group's DID-only rows naming these people: `update` changes a row's view in
 * place and says whether it changed anything (rows already saying the same are left, so
 * their lists' revisions do not move). Says how many rows changed.
 */
export async function rewriteRowsNaming(tx: Transaction<CacheSchema>, groupDid: string, dids: string[], update: (view: Record<string, unknown>, did: string) => boolean): Promise<number> {
  let changed = 0
  for (let i = 0; i < dids.length; i += 500) {
    const rows = await tx
      .selectFrom('item')
      .select(['kind', 'key', 'view'])
      .where('groupDid', '=', groupDid)
      .where('kind', 'in', [...KINDS_BY_DID])
      .where('key', 'in', dids.slice(i, i + 500))
      .execute()
    for (const row of rows) {
      const view = JSON.parse(row.view) as Record<string, unknown>
      if (!update(view, row.key)) continue
      await tx.updateTable('item').set({ view: JSON.stringify(view) }).where('groupDid', '=', groupDid).where('kind', '=', row.kind).where('key', '=', row.key).execute()
      changed++
    }
  }
  return changed
}
