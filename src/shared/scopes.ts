/**
 * OAuth scopes Convene asks for. The permission sets (published lexicons) name every
 * host method as an `rpc:` permission that inherits its audience from the include,
 * plus the member-written collections (spec section 4: `basePermissions` for
 * acceptances, `calendarPermissions` for RSVPs).
 */
export const BASE_PERMISSIONS = 'example.groups.basePermissions'
export const CALENDAR_PERMISSIONS = 'example.groups.calendarPermissions'

/** `aud` is a host's `<service DID>#groups`, or `*` for any host. */
export function groupScopes(aud: string): string {
  return [
    'atproto',
    `include:${BASE_PERMISSIONS}?aud=${encodeURIComponent(aud)}`,
    `include:${CALENDAR_PERMISSIONS}`,
  ].join(' ')
}

/** The scope `getServiceAuth` needs for one method (what ScopeMissingError names). */
export const rpcScope = (lxm: string, aud: string) => `rpc:${lxm}?aud=${encodeURIComponent(aud)}`

/** The scope a ScopeMissingError message names: `Missing required scope "rpc:…"`. */
export function scopeFromScopeMissing(message: string): string | null {
  return /Missing required scope "([^"]+)"/.exec(message)?.[1] ?? null
}
