/**
 * Requests whose credentials the host accepted, marked when the per-account limits see
 * them (xrpc-server runs those right after authentication), so the per-IP limit can
 * tell, once a request is answered, whether it was really authenticated: a request
 * carrying any `Authorization` header is not thereby authenticated.
 */
const accepted = new WeakSet<object>()

export function markAuthenticated(req: object): void {
  accepted.add(req)
}

export function wasAuthenticated(req: object): boolean {
  return accepted.has(req)
}
