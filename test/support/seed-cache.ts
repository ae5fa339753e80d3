import path from 'node:path'
import { openCacheDb } from '../../src/main/core/cache/cache-db.js'
import { putItem } from '../../src/main/core/cache/items.js'
import type { MemberItem } from '../../src/shared/ipc/views.js'

/**
 * Puts `count` extra members of a group into an account's cache, as a sync from a very
 * large group would leave them: for tests and benches of long lists, where making
 * thousands of real accounts join would take longer than the thing measured.
 *
 * It opens the app's own cache file (under the app's data folder) with a connection of
 * its own, so it works whichever process runs the app (SQLite's WAL lets both write);
 * the app sees the rows through the list's trigger-kept revision.
 * Member i has DID `did:plc:<prefix><i, 6 digits>`, padded with x to 24 characters.
 */
export async function seedCachedMembers(
  dataDir: string,
  accountDid: string,
  groupDid: string,
  count: number,
  opts: { prefix?: string; handle?: (i: number) => string | null } = {},
): Promise<string[]> {
  const prefix = opts.prefix ?? 'many'
  const cache = await openCacheDb(path.join(dataDir, 'cache'), accountDid)
  const dids: string[] = []
  try {
    await cache.transaction().execute(async (tx) => {
      for (let i = 0; i < count; i++) {
        const did = `did:plc:${`${prefix}${String(i).padStart(6, '0')}`.padEnd(24, 'x')}`
        const member: Omit<MemberItem, 'pending'> = {
          did,
          handle: opts.handle ? opts.handle(i) : `person${i}.test`,
          roles: ['member'],
          joinedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
          accepted: i % 3 === 0,
        }
        await putItem(tx, groupDid, 'member', did, member, null)
        dids.push(did)
      }
    })
  } finally {
    await cache.destroy()
  }
  return dids
}
