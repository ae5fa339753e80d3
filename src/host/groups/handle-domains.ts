import { isValidHandle } from '@atproto/syntax'
import { refuse } from '../errors.js'

/** What the local network and a host without a DNS name give its groups (decisions 6.3). */
export const DEFAULT_HANDLE_DOMAIN = '.groups.test'

/**
 * A configured handle domain in the form the checks use: lower case, one leading dot.
 * `groups.example.com` and `.groups.example.com` mean the same.
 */
export function normalizeHandleDomain(domain: string): string {
  const d = `.${domain.trim().toLowerCase().replace(/^\.+/, '')}`
  if (!isValidHandle(`x${d}`)) throw new Error(`"${domain}" cannot end a handle: give a domain name such as .groups.example.com`)
  return d
}

/**
 * The handle domains a host without --handle-domain uses: `.<its public host name>` when
 * that is a DNS name (as a PDS does with its own host name), else `.groups.test`.
 */
export function defaultHandleDomains(publicUrl: string | undefined): string[] {
  const hostname = publicUrl ? URL.parse(publicUrl)?.hostname : undefined
  if (hostname && hostname !== 'localhost' && !/^[\d.]+$/.test(hostname) && !hostname.includes(':') && hostname.includes('.')) {
    return [normalizeHandleDomain(hostname)]
  }
  return [DEFAULT_HANDLE_DOMAIN]
}

/**
 * Whether the host may vouch for `handle`: one name in front of one of its domains
 * (`book-club.groups.test`, not `a.book-club.groups.test`), as a PDS allows its accounts.
 */
export function isHostedHandle(handle: string, domains: readonly string[]): boolean {
  const h = handle.toLowerCase()
  return domains.some((d) => h.endsWith(d) && h.length > d.length && !h.slice(0, -d.length).includes('.'))
}

/** `createGroup` with a handle outside the host's domains: `InvalidRequest`, saying which fit. */
export function requireHostedHandle(handle: string, domains: readonly string[]): void {
  if (isHostedHandle(handle, domains)) return
  const example = `book-club${domains[0] ?? DEFAULT_HANDLE_DOMAIN}`
  throw refuse(
    'InvalidRequest',
    `This host gives groups handles ending in ${domains.join(' or ')} (one name in front, such as ${example}); ${handle} is not one of them`,
  )
}
