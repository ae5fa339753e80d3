import { createHash } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { CacheDb, CacheSchema, ProfileTable } from '../cache/cache-db.js'
import { askAbout, peopleDue, rewriteRowsNaming } from './people-pass.js'
import type { Profile } from './profile-reader.js'

type Db = Kysely<CacheSchema> | Transaction<CacheSchema>

/**
 * A profile is read again at the first sync after this long: names and pictures change
 * more often than handles, but not so often that every sync should ask every PDS.
 */
export const PROFILE_RECHECK_MS = 10 * 60 * 1000
/** Profiles read per pass: a huge group fills in over several passes. */
export const PROFILES_PER_PASS = 200

export type KnownProfile = Omit<ProfileTable, 'did' | 'checkedAt'>

/** What a list row keeps of a profile: the name (searched, sorted on), and a tag that moves when anything shown changed. */
export function rowProfile(p: KnownProfile | undefined): { displayName: string | null; profileTag: string | null } {
  if (!p) return { displayName: null, profileTag: null }
  const tag = createHash('sha256').update(JSON.stringify([p.displayName, p.description, p.avatarCid, p.avatar !== null, p.accountCreatedAt])).digest('base64url').slice(0, 12)
  return { displayName: p.displayName, profileTag: tag }
}

/** Keeps a profile just read, and when. */
export async function rememberProfile(db: Db, did: string, p: Profile, checkedAt = new Date().toISOString()): Promise<void> {
  const row = { displayName: p.displayName, description: p.description, avatar: p.avatar, avatarCid: p.avatarCid, accountCreatedAt: p.accountCreatedAt, checkedAt }
  await db.insertInto('profile').values({ did, ...row }).onConflict((oc) => oc.column('did').doUpdateSet(row)).execute()
}

/** The profiles known for these DIDs. */
export async function knownProfiles(db: Db, dids: string[]): Promise<Map<string, KnownProfile>> {
  const out = new Map<string, KnownProfile>()
  const unique = [...new Set(dids)]
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db.selectFrom('profile').selectAll().where('did', 'in', unique.slice(i, i + 500)).execute()
    for (const { did, checkedAt: _, ...p } of rows) out.set(did, p)
  }
  return out
}

/**
 * Reads the profiles of people in a group's DID-only lists not read lately, keeps them,
 * and writes their row fields (name, tag) onto the rows, so windows showing them read
 * again. `read` throwing means "could not ask": the old profile stays, for the next pass.
 */
export async function fillListProfiles(db: CacheDb, groupDid: string, read: (did: string) => Promise<Profile>, now = Date.now()): Promise<{ due: number; changed: number }> {
  const due = await peopleDue(db, groupDid, 'profile', new Date(now - PROFILE_RECHECK_MS).toISOString(), PROFILES_PER_PASS)
  const found = await askAbout(due, read)
  if (found.size === 0) return { due: due.length, changed: 0 }
  const checkedAt = new Date(now).toISOString()
  const changed = await db.transaction().execute(async (tx) => {
    for (const [did, p] of found) await rememberProfile(tx, did, p, checkedAt)
    return rewriteRowsNaming(tx, groupDid, [...found.keys()], (view, did) => {
      const fields = rowProfile(found.get(did))
      if ((view.displayName ?? null) === fields.displayName && (view.profileTag ?? null) === fields.profileTag) return false
      Object.assign(view, fields)
      return true
    })
  })
  return { due: due.length, changed }
}

/**
 * The rows of one page with their people's faces put on (only the page in view: avatars
 * are not kept in the sorted lists). `didOf` names the person a row is about, if any.
 */
export async function withProfiles<T extends object>(
  db: Db,
  items: T[],
  didOf: (item: T) => string | null,
): Promise<(T & { displayName: string | null; avatar: string | null; description: string | null; accountCreatedAt: string | null })[]> {
  const profiles = await knownProfiles(
    db,
    items.map(didOf).filter((d): d is string => d !== null),
  )
  return items.map((item) => {
    const did = didOf(item)
    const p = did ? profiles.get(did) : undefined
    return { ...item, displayName: p?.displayName ?? null, avatar: p?.avatar ?? null, description: p?.description ?? null, accountCreatedAt: p?.accountCreatedAt ?? null }
  })
}
