import { parseSpaceScope, type SpaceScope } from './space-scope.js'

/**
 * Whether a client declares what a sign-in asks for. atproto servers compare scope
 * strings: an asked scope the client's metadata does not list is refused. A published
 * document cannot list scopes naming groups it has never seen, so for `space:` scopes a
 * group host also reads a declared scope without `authority` (or with `authority=*`) as
 * covering the same scope for any one group (decisions 7.4): same space type and key,
 * and no collection or action beyond the declared ones. The host (PAR) and the app
 * (before it starts a sign-in it would be refused) read declarations with this one rule.
 */

/**
 * The asked scopes `declared` (a client's metadata `scope`) does not cover, as a group
 * host reads it. (A PDS compares strings only: accounts/client-identity.ts.)
 */
export function undeclaredAtGroupHost(declared: string, asked: string): string[] {
  const tokens = new Set(declared.split(' ').filter(Boolean))
  const anyGroup = [...tokens].flatMap((t) => parseSpaceScope(t) ?? []).filter((s) => s.authority === null)
  return asked.split(' ').filter((token) => {
    if (!token || tokens.has(token)) return false
    const space = parseSpaceScope(token)
    return !(space && anyGroup.some((d) => covers(d, space)))
  })
}

/** Whether a group-agnostic declared space scope covers an asked one. */
function covers(declared: SpaceScope, asked: SpaceScope): boolean {
  if (declared.type !== asked.type || declared.skey !== asked.skey) return false
  const anyCollection = declared.collections.includes('*')
  return asked.collections.every((c) => anyCollection || (c !== '*' && declared.collections.includes(c))) && asked.actions.every((a) => declared.actions.includes(a))
}
