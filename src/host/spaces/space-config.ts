import type { Kysely } from 'kysely'
import { isValidNsid } from '@atproto/syntax'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { formatSpaceAddress, parseSpaceAddress } from '../../shared/space-address.js'
import { ALL_COLLECTIONS, type CredentialScope } from './space.js'
import { isWellKnownSpaceType } from './well-known.js'

type Db = Kysely<HostDatabaseSchema>

/** Record keys are at most 512 characters; the index record's is `<type>:<skey>`. */
const MAX_INDEX_RKEY = 512

/**
 * The address of a new space of `groupDid`. `type` is a dotted name (`community.lexicon.calendar`)
 * or a plain one, `skey` has record-key syntax (`self` for single-instance spaces).
 * `meta` and `members` are the group's well-known spaces, made with the group; their
 * types are reserved.
 */
export function newSpaceAddress(groupDid: string, type: string, skey: string): string {
  const uri = formatSpaceAddress({ authority: groupDid, type, skey })
  if (!parseSpaceAddress(uri)) {
    throw refuse('InvalidRequest', 'type must be a dotted name such as community.lexicon.calendar, and skey a record key such as self')
  }
  if (type.length + 1 + skey.length > MAX_INDEX_RKEY) {
    throw refuse('InvalidRequest', `type and skey together must stay within ${MAX_INDEX_RKEY - 1} characters`)
  }
  if (isWellKnownSpaceType(type)) {
    throw refuse('InvalidRequest', `"${type}" is the type of one of the group's well-known spaces, which every group has from the start`)
  }
  return uri
}

export function checkName(name: string): string {
  if (!name.trim()) throw refuse('InvalidRequest', 'A space needs a name')
  return name
}

async function roleNames(db: Db, groupDid: string): Promise<Set<string>> {
  const rows = await db.selectFrom('role').select('name').where('groupDid', '=', groupDid).execute()
  return new Set(rows.map((r) => r.name))
}

function knownRole(roles: Set<string>, role: string): string {
  if (!roles.has(role)) throw refuse('InvalidRequest', `The group has no role "${role}"`)
  return role
}

/** `readableBy`: roles of the group, each once. */
export async function checkReadableBy(db: Db, groupDid: string, readableBy: string[]): Promise<string[]> {
  const roles = await roleNames(db, groupDid)
  return [...new Set(readableBy.map((r) => knownRole(roles, r)))]
}

/**
 * `credentialScopes`: one item per role of the group; `scopes` are collection NSIDs, or
 * `*` alone. Two items for one role would leave the access record ambiguous to a reader
 * of the index, so that is refused rather than merged.
 */
export async function checkCredentialScopes(db: Db, groupDid: string, items: CredentialScope[]): Promise<CredentialScope[]> {
  const roles = await roleNames(db, groupDid)
  const seen = new Set<string>()
  return items.map(({ role, scopes }) => {
    knownRole(roles, role)
    if (seen.has(role)) throw refuse('InvalidRequest', `credentialScopes names the role "${role}" twice`)
    seen.add(role)
    if (scopes.includes(ALL_COLLECTIONS)) {
      if (scopes.length > 1) throw refuse('InvalidRequest', `"${ALL_COLLECTIONS}" means every collection: give it alone`)
      return { role, scopes: [ALL_COLLECTIONS] }
    }
    for (const s of scopes) {
      if (!isValidNsid(s)) throw refuse('InvalidRequest', `"${s}" is not a collection name (an NSID such as community.lexicon.calendar.event)`)
    }
    return { role, scopes: [...new Set(scopes)] }
  })
}
