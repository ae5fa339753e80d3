/**
 * Requests whose credentials the host accepted, marked when the per-account limits see
 * them (xrpc-server runs those right after authentication), so the per-IP limit can
 * tell, once a request is answered, whether it was really authenticated: a request
 * carrying any `Authorization` header is not thereby authenticated.
 */
const accepted = new WeakSet<object>()
const onAccepted = new WeakMap<object, () => void>()

export function markAuthenticated(req: object): void {
  if (accepted.has(req)) return
  accepted.add(req)
  onAccepted.get(req)?.()
  onAccepted.delete(req)
}

export function wasAuthenticated(req: object): boolean {
  return accepted.has(req)
}

/** Runs `fn` once `req` is marked authenticated (if it ever is). */
export function whenAuthenticated(req: object, fn: () => void): void {
  onAccepted.set(req, fn)
}
