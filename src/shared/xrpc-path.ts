import { isValidNsid } from '@atproto/syntax'

const XRPC = '/xrpc/'

/**
 * The method a request path calls: `/xrpc/<nsid>`, with the one trailing slash and the
 * query xrpc-server routes too, or null for any other path (a sub-path, an encoded or
 * malformed NSID, a route such as `/xrpc/_health` that is no method).
 */
export function nsidOfXrpcPath(path: string): string | null {
  if (!path.startsWith(XRPC)) return null
  const query = path.indexOf('?')
  let nsid = path.slice(XRPC.length, query < 0 ? undefined : query)
  if (nsid.endsWith('/')) nsid = nsid.slice(0, -1)
  return isValidNsid(nsid) ? nsid : null
}
