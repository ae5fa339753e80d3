import type { HostDb } from './db/index.js'
import { createGroup, putMember, type NewGroup } from './groups/create-group.js'

/** A seed file: groups to create on first start, each with members and their roles. */
export interface HostSeed {
  groups: (NewGroup & { members?: { did: string; roles: string[] }[] })[]
}

export interface SeededGroup {
  handle: string
  did: string
  joinPolicy: NewGroup['joinPolicy']
}

/**
 * Applies a seed idempotently: a group whose handle exists already is left alone, so
 * restarting on the same data directory never duplicates anything.
 */
export async function applySeed(
  db: HostDb,
  opts: { plcUrl: string; publicUrl: string; hostKey: Buffer },
  seed: HostSeed,
): Promise<SeededGroup[]> {
  const out: SeededGroup[] = []
  for (const g of seed.groups) {
    const existing = await db
      .selectFrom('group')
      .select(['did', 'handle', 'joinPolicy'])
      .where('handle', '=', g.handle)
      .executeTakeFirst()
    if (existing) {
      out.push(existing)
      continue
    }
    const { did } = await createGroup(db, opts, g)
    for (const m of g.members ?? []) await putMember(db, did, m.did, m.roles)
    out.push({ did, handle: g.handle, joinPolicy: g.joinPolicy })
  }
  return out
}
