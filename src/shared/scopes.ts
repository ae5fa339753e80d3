import basePermissions from '../../lexicons/example/groups/basePermissions.json' with { type: 'json' }
import { ANY_GROUP_SESSION_SCOPE } from './group-scope.js'

/**
 * OAuth scopes Convene asks for. The permission sets (published lexicons) name every
 * host method as an `rpc:` permission that inherits its audience from the include,
 * plus the member-written collections (spec section 4: `basePermissions` for
 * acceptances, `calendarPermissions` for RSVPs).
 */
export const BASE_PERMISSIONS = 'example.groups.basePermissions'
export const CALENDAR_PERMISSIONS = 'example.groups.calendarPermissions'

/**
 * RSVPs in the ecosystem's collection (community.lexicon.calendar.rsvp). A permission set
 * may only name collections under its own authority, so `calendarPermissions` (which keeps
 * the `example.groups.rsvp` written before) cannot carry it: it is asked for on its own,
 * in @atproto/oauth-scopes' normal form (every action).
 */
export const RSVP_SCOPE = 'repo:community.lexicon.calendar.rsvp'

/**
 * Reading a group's spaces on its host (`com.atproto.space.*`): a permission set may only
 * name methods under its own namespace, so these are asked for one by one.
 */
export const SPACE_READ_METHODS = ['com.atproto.space.getRecord', 'com.atproto.space.listRecords']

/**
 * Every host method Convene calls with service auth: the base permission set's methods
 * (read from the lexicon, so the two cannot drift) and the space reads.
 */
export const HOST_METHODS: readonly string[] = [...basePermissionMethods(), ...SPACE_READ_METHODS].sort()

/**
 * What Convene asks for on the real network. A published client metadata document must
 * declare every scope a sign-in asks for (servers compare the strings), and it is written
 * before anyone knows which group hosts people will use, so per-host audiences
 * (`include:…?aud=<host>`) cannot be declared: the host methods are asked for once, for
 * any audience (`aud=*`, allowed for named methods; never `rpc:*?aud=*`). The string is in
 * @atproto/oauth-scopes' normal form (methods sorted), as the document declares it.
 */
export const ATPROTO_NETWORK_SCOPE = [
  'atproto',
  `include:${CALENDAR_PERMISSIONS}`,
  RSVP_SCOPE,
  `rpc?${HOST_METHODS.map((lxm) => `lxm=${lxm}`).join('&')}&aud=*`,
].join(' ')

/**
 * What the published client metadata document declares (`oauth/client-metadata.json`):
 * what people's sign-ins ask for on the real network, and acting as any group (a group
 * host reads the group-agnostic space scope as covering each group's).
 */
export const RELEASE_CLIENT_SCOPE = `${ATPROTO_NETWORK_SCOPE} ${ANY_GROUP_SESSION_SCOPE}`

/** Everything Convene asks one host (`aud` = its `<service DID>#groups`) to allow. */
export function groupScopes(aud: string): string {
  return [
    'atproto',
    `include:${BASE_PERMISSIONS}?aud=${audParam(aud)}`,
    `include:${CALENDAR_PERMISSIONS}`,
    RSVP_SCOPE,
    ...SPACE_READ_METHODS.map((lxm) => rpcScope(lxm, aud)),
  ].join(' ')
}

/** A `did#service` audience in a scope's query: only the `#` needs escaping (as the PDS writes it). */
const audParam = (aud: string) => aud.replaceAll('#', '%23')

/** The scope `getServiceAuth` needs for one method (what ScopeMissingError names). */
export const rpcScope = (lxm: string, aud: string) => `rpc:${lxm}?aud=${audParam(aud)}`

/** The scope a ScopeMissingError message names: `Missing required scope "rpc:…"`. */
export function scopeFromScopeMissing(message: string): string | null {
  return /Missing required scope "([^"]+)"/.exec(message)?.[1] ?? null
}

/** The `rpc` methods the base permission set names (its lexicon is the source of truth). */
function basePermissionMethods(): string[] {
  return basePermissions.defs.main.permissions.flatMap((p) => (p.resource === 'rpc' && 'lxm' in p ? (p.lxm ?? []) : []))
}
