import type { HostDb } from '../db/index.js'

/** How many hosted group DIDs are kept in memory; the least recently used go first. */
export const HOSTED_GROUPS_MAX = 100_000

/**
 * Whether a group DID is one this host hosts, for the procedure limit (issue 22): a
 * call naming a hosted group is counted per account and group, any other per account
 * only, so made-up group DIDs do not each open a fresh allowance. Hosted groups are
 * remembered in memory (groups are never deleted, so a yes stays true and is right for
 * every process on a shared database), and the calls of an active group cost no
 * database round trip; a DID not remembered is looked up once per call, as the method
 * would anyway, and a no is not remembered, since another process may create it.
 */
export class HostedGroups {
  private readonly known = new Set<string>()

  constructor(
    private readonly db: HostDb,
    private readonly max = HOSTED_GROUPS_MAX,
  ) {}

  async has(did: string): Promise<boolean> {
    if (this.known.has(did)) {
      // Re-inserted so that Set order is the order of last use.
      this.known.delete(did)
      this.known.add(did)
      return true
    }
    if (!did.startsWith('did:') || did.length > 2048) return false
    const row = await this.db.selectFrom('group').select('did').where('did', '=', did).executeTakeFirst()
    if (!row) return false
    this.known.add(did)
    while (this.known.size > this.max) this.known.delete(this.known.values().next().value!)
    return true
  }
}

/** The group stored under `handle` here (lower case), if any. */
export async function groupWithHandle(db: HostDb, handle: string): Promise<{ did: string } | undefined> {
  return db.selectFrom('group').select('did').where('handle', '=', handle).executeTakeFirst()
}
