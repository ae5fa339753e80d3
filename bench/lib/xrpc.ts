/** Plain XRPC over fetch, for the bench's set-up (not timed): errors name the call. */
export async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  init: { params?: Record<string, string>; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ body: T; headers: Headers }> {
  const url = new URL(`/xrpc/${method}`, base)
  for (const [k, v] of Object.entries(init.params ?? {})) url.searchParams.set(k, v)
  const res = await fetch(url, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(30_000),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} at ${base} failed (${res.status}): ${text.slice(0, 500)}`)
  return { body: (text ? JSON.parse(text) : {}) as T, headers: res.headers }
}

/** `fn` over `items`, at most `limit` at a time, results in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i]!, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return out
}
