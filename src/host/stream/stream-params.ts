import type { Lexicons } from '@atproto/lexicon'

/**
 * A subscription's parameters checked against its lexicon before the upgrade, as
 * xrpc-server reads them (repeated names for arrays, `__proto__` refused): so bad input
 * is a plain HTTP 400 `InvalidRequest`, as for any query, and costs no open stream.
 * (xrpc-server checks them again once the socket is up; after this they pass.) Returns
 * what is wrong, or undefined.
 */
export function paramsProblem(lex: Lexicons, nsid: string, url: string): string | undefined {
  let search: URLSearchParams
  try {
    search = new URL(url, 'http://host.invalid').searchParams
  } catch {
    return 'The request address could not be read'
  }
  if (search.has('__proto__')) return 'Invalid query parameter: __proto__'
  const def = lex.getDef(nsid) as { parameters?: { properties?: Record<string, { type: string; items?: { type: string } }> } } | undefined
  const params: Record<string, unknown> = {}
  for (const [name, property] of Object.entries(def?.parameters?.properties ?? {})) {
    if (property.type === 'array') {
      const values = search.getAll(name).filter(Boolean).map((v) => decode(property.items?.type ?? 'string', v))
      if (values.length) params[name] = values
    } else {
      const value = search.get(name)
      if (value) params[name] = decode(property.type, value)
    }
  }
  try {
    lex.assertValidXrpcParams(nsid, params)
    return undefined
  } catch (err) {
    return String((err as Error).message ?? err)
  }
}

/** A query value as xrpc-server decodes it for a parameter of `type`. */
function decode(type: string, value: string): unknown {
  if (type === 'integer') return parseInt(value, 10) || 0
  if (type === 'float') return Number(value)
  if (type === 'boolean') return value === 'true'
  return value
}
