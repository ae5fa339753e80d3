import type { MemberItem } from '../../../shared/ipc/views.js'
import type { CacheDb } from '../cache/cache-db.js'
import { readItems } from '../cache/items.js'

export interface MemberQuery {
  /** Matches a DID or handle, in part, any case; a leading @ is ignored. */
  q?: string
  offset: number
  limit: number
}

export interface MemberPage {
  items: MemberItem[]
  offset: number
  /** Members in the group, and how many of them match `q`. */
  total: number
  matched: number
  /** Moves whenever the cached members change: pages of different revisions do not mix. */
  revision: number
}

interface Sorted {
  revision: number
  rolesKey: string
  members: MemberItem[]
}

/** Lists kept sorted in memory at once; a handful of groups covers what one window shows. */
const KEPT = 8

/**
 * Members of a group a page at a time, in the order organizers read them: by the
 * group's own order of roles (owners first), then by when they joined. A group of
 * 10,000 is read and sorted once per change of the cache (the trigger-kept revision
 * says when), so each page the window asks for while scrolling costs one tiny query
 * and a slice, and only the rows in view cross to the renderer.
 */
export class MemberPages {
  private readonly kept = new Map<string, Sorted>()

  async page(cache: CacheDb, cacheKey: string, groupDid: string, allRoles: string[], query: MemberQuery): Promise<MemberPage> {
    const members = await this.sorted(cache, cacheKey, groupDid, allRoles)
    const needle = (query.q ?? '').trim().toLowerCase().replace(/^@/, '')
    const matching = needle ? members.members.filter((m) => m.did.toLowerCase().includes(needle) || (m.handle?.toLowerCase().includes(needle) ?? false)) : members.members
    return {
      items: matching.slice(query.offset, query.offset + query.limit),
      offset: query.offset,
      total: members.members.length,
      matched: matching.length,
      revision: members.revision,
    }
  }

  private async sorted(cache: CacheDb, cacheKey: string, groupDid: string, allRoles: string[]): Promise<Sorted> {
    const key = `${cacheKey} ${groupDid}`
    const rolesKey = allRoles.join('\n')
    const row = await cache.selectFrom('item_revision').select('n').where('groupDid', '=', groupDid).where('kind', '=', 'member').executeTakeFirst()
    const revision = row?.n ?? 0
    const kept = this.kept.get(key)
    if (kept && kept.revision === revision && kept.rolesKey === rolesKey) {
      // Most recently used last, so the oldest is the one let go.
      this.kept.delete(key)
      this.kept.set(key, kept)
      return kept
    }
    const members = await readItems<MemberItem>(cache, groupDid, 'member')
    const fresh: Sorted = { revision, rolesKey, members: sortMembers(members, allRoles) }
    this.kept.delete(key)
    this.kept.set(key, fresh)
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!)
    return fresh
  }

  forget(cacheKey: string) {
    for (const key of this.kept.keys()) if (key.startsWith(`${cacheKey} `)) this.kept.delete(key)
  }
}

/** Organizers first (in the group's own order of roles), then by when they joined. */
export function sortMembers(members: MemberItem[], allRoles: string[]): MemberItem[] {
  const order = new Map(allRoles.map((r, i) => [r, i]))
  const rank = (m: MemberItem) => Math.min(allRoles.length, ...m.roles.map((r) => order.get(r) ?? allRoles.length))
  return members
    .map((m) => ({ m, rank: rank(m) }))
    .sort((a, b) => a.rank - b.rank || a.m.joinedAt.localeCompare(b.m.joinedAt) || a.m.did.localeCompare(b.m.did))
    .map(({ m }) => m)
}
