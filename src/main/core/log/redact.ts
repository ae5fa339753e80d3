/**
 * What the log must never hold: tokens, DPoP keys and JWKs, authorization headers,
 * sessions, passwords. Values under these key names are censored whole; any string
 * (a message, a URL, an error's text) loses JWT-looking runs and credentials after an
 * HTTP auth scheme. It is a last line of defence: code logs errors' messages, not
 * the objects that hold secrets.
 */
const SECRET_KEY = /token|jwt|jwk|dpop|authorization|cookie|password|passwd|secret|session|credential|private|^(d|p|q|dp|dq|qi|k)$|key$/i

const JWT = /eyJ[\w-]{2,}\.[\w-]{2,}\.[\w-]*/g
const AUTH_SCHEME = /\b(Bearer|DPoP|Basic)\s+[\w.~+/=-]+/gi
/**
 * `name=value` pairs that carry codes or tokens: query parameters (an OAuth redirect's
 * `code`, a `request_uri`) and the same pairs in an error's words ("token=…", "password=…").
 */
const SECRET_PARAM = /((?:^|[?&\s,;(])(?:code|access_token|refresh_token|id_token|token|request_uri|state|iss_token|password|secret)=)[^&\s"',;)]+/gi

export const REDACTED = '[redacted]'

export function redactString(s: string): string {
  return s.replace(JWT, REDACTED).replace(AUTH_SCHEME, `$1 ${REDACTED}`).replace(SECRET_PARAM, `$1${REDACTED}`)
}

/** A JSON-safe, censored copy of `value` (errors become {name, message, stack, …}). */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactString(value)
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? String(value) : value
  if (seen.has(value)) return '[circular]'
  if (depth > 6) return '[deep]'
  seen.add(value)
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, seen))
  const out: Record<string, unknown> = {}
  if (value instanceof Error) {
    out.name = value.name
    out.message = redactString(value.message)
    if (value.stack) out.stack = redactString(value.stack)
    if (value.cause !== undefined) out.cause = redact(value.cause, depth + 1, seen)
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'function') continue
    out[k] = SECRET_KEY.test(k) ? REDACTED : redact(v, depth + 1, seen)
  }
  return out
}
