/**
 * The few PDS calls the stack makes while seeding, over plain XRPC (the same HTTP a
 * peer would send), with errors that name the call that failed.
 */
export class PdsClient {
  constructor(readonly url: string) {}

  async call<T>(method: string, opts: { body?: unknown; token?: string; query?: Record<string, string> } = {}): Promise<T> {
    const url = new URL(`/xrpc/${method}`, this.url)
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v)
    const headers: Record<string, string> = {}
    if (opts.token) headers.authorization = `Bearer ${opts.token}`
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(url, {
      method: opts.body === undefined ? 'GET' : 'POST',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} failed (${res.status}): ${text}`)
    return (text ? JSON.parse(text) : {}) as T
  }

  /** Uploads raw bytes (an avatar) and answers the blob reference a record names. */
  async uploadBlob(token: string, bytes: Buffer, mimeType: string): Promise<{ blob: unknown }> {
    const res = await fetch(new URL('/xrpc/com.atproto.repo.uploadBlob', this.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': mimeType },
      body: bytes,
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`com.atproto.repo.uploadBlob failed (${res.status}): ${text}`)
    return JSON.parse(text) as { blob: unknown }
  }

  createAccount(handle: string, password: string) {
    return this.call<{ did: string; accessJwt: string }>('com.atproto.server.createAccount', {
      body: { handle, password, email: `${handle}@convene.invalid` },
    })
  }

  createSession(identifier: string, password: string) {
    return this.call<{ did: string; accessJwt: string }>('com.atproto.server.createSession', {
      body: { identifier, password },
    })
  }
}
