import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { formatSpaceAddress } from '../../shared/space-address.js'
import { ALL_COLLECTIONS, findSpace, writableCollections } from '../spaces/space.js'
import { GRANTED_ACTIONS } from '../spaces/scope.js'
import type { Viewer } from '../groups/access.js'

type Db = Kysely<HostDatabaseSchema>
export type SpaceAction = (typeof GRANTED_ACTIONS)[number]

/** One `space:` scope (spec section 5.7): what it lets a session write in one space. */
export interface SpaceScope {
  /** The space's address, `at://<authority>/space/<type>/<skey>`. */
  space: string
  type: string
  authority: string
  skey: string
  collections: string[]
  actions: SpaceAction[]
}

const MAX_SCOPE_TOKENS = 50
const TYPE = /^[a-zA-Z][a-zA-Z0-9-]*(?:\.[a-zA-Z0-9-]+)*$/

/**
 * A `space:<type>?authority=…&skey=…&collection=…&action=…` scope token, or undefined.
 * `@atproto/oauth-scopes` knows the atproto resources (repo, rpc, blob…) but not this
 * one, so it is read here; parameters follow the same rules (repeatable `collection`
 * and `action`, `:` unescaped). Without `action`, all three are meant, as for `repo:`.
 */
export function parseSpaceScope(token: string): SpaceScope | undefined {
  const m = /^space:([^?]+)\?(.*)$/.exec(token)
  if (!m || !TYPE.test(m[1]!)) return undefined
  const params = new URLSearchParams(m[2])
  const authority = params.getAll('authority')
  const skey = params.getAll('skey')
  if (authority.length !== 1 || skey.length !== 1 || !authority[0]!.startsWith('did:')) return undefined
  const collections = [...new Set(params.getAll('collection'))]
  const actions = params.getAll('action')
  if (!collections.length || actions.some((a) => !(GRANTED_ACTIONS as readonly string[]).includes(a))) return undefined
  const type = m[1]!
  return {
    space: formatSpaceAddress({ authority: authority[0]!, type, skey: skey[0]! }),
    type,
    authority: authority[0]!,
    skey: skey[0]!,
    collections,
    actions: actions.length ? [...new Set(actions as SpaceAction[])] : [...GRANTED_ACTIONS],
  }
}

// As src/host/spaces/scope.ts encodes them: `:` stays, the rest outside unreserved is escaped.
const encode = (value: string) => encodeURIComponent(value).replace(/%3A/gi, ':')

export function formatSpaceScope(s: SpaceScope): string {
  const params = [
    `authority=${encode(s.authority)}`,
    `skey=${encode(s.skey)}`,
    ...s.collections.map((c) => `collection=${encode(c)}`),
    ...s.actions.map((a) => `action=${a}`),
  ]
  return `space:${encode(s.type)}?${params.join('&')}`
}

/** The `space:` scopes a granted scope string holds. */
export const spaceScopesOf = (scope: string): SpaceScope[] =>
  scope.split(' ').flatMap((t) => {
    const s = parseSpaceScope(t)
    return s ? [s] : []
  })

/**
 * What a group session may have of what the app asked for (decisions 6.6): `atproto`,
 * and each `space:` scope of this group narrowed to the collections the person's roles
 * get a credential for in that space (`credentialScopes`), dropped when none is left.
 * Every other scope is dropped too: the group has no repository, RPC or blob permissions
 * on this host to give. Dropping is silent (spec section 5.4): the granted scope says it.
 */
export async function narrowScope(db: Db, groupDid: string, viewer: Viewer, requested: string): Promise<{ scope: string; spaces: (SpaceScope & { name: string })[] }> {
  const spaces: (SpaceScope & { name: string })[] = []
  for (const token of requested.split(' ').slice(0, MAX_SCOPE_TOKENS)) {
    const asked = parseSpaceScope(token)
    if (!asked || asked.authority !== groupDid) continue
    const space = await findSpace(db, asked.space)
    if (!space) continue
    const allowed = writableCollections(space, viewer)
    const collections = allowed.includes(ALL_COLLECTIONS)
      ? asked.collections
      : asked.collections.includes(ALL_COLLECTIONS)
        ? allowed
        : asked.collections.filter((c) => allowed.includes(c))
    // The space's name comes along for the consent page, which names what it grants.
    if (collections.length) spaces.push({ ...asked, collections, name: space.name })
  }
  return { scope: ['atproto', ...spaces.map(formatSpaceScope)].join(' '), spaces }
}

const ACTION_WORDS: Record<SpaceAction, string> = { create: 'create', update: 'change', delete: 'delete' }

/** A granted space scope in plain words, for the consent page. */
export function describeSpaceScope(s: SpaceScope, spaceName: string): string {
  const verbs = s.actions.map((a) => ACTION_WORDS[a])
  const what = s.collections.includes(ALL_COLLECTIONS) ? 'any kind of record' : s.collections.join(', ')
  const list = verbs.length > 1 ? `${verbs.slice(0, -1).join(', ')} and ${verbs.at(-1)!}` : verbs[0]!
  return `${list[0]!.toUpperCase()}${list.slice(1)} ${what} in the group's “${spaceName}” space, as the group`
}
