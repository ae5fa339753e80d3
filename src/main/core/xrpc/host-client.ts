import type { ServiceAuthCache } from './service-auth-cache.js'
import { readXrpc, XrpcCallError } from './xrpc-error.js'

export interface HostAddress {
  url: string
  /** `<host service DID>#groups` */
  aud: string
}

/**
 * Calls a group host's methods with service auth from the person's own PDS, straight
 * to the host with no proxy header (spec section 4).
 */
export class HostClient {
  constructor(
    readonly host: HostAddress,
    private readonly auth: ServiceAuthCache,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  query<T>(method: string, params: Record<string, string | number | undefined>): Promise<T> {
    const url = new URL(`/xrpc/${method}`, this.host.url)
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v))
    return this.send<T>(method, url, { method: 'GET' })
  }

  procedure<T>(method: string, body: unknown): Promise<T> {
    const url = new URL(`/xrpc/${method}`, this.host.url)
    return this.send<T>(method, url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  }

  private async send<T>(method: string, url: URL, init: RequestInit, retried = false): Promise<T> {
    const token = await this.auth.get(this.host.aud, method)
    let res: Response
    try {
      res = await this.fetchImpl(url, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } })
    } catch (err) {
      throw new XrpcCallError(method, 0, 'HostUnreachable', (err as Error).message)
    }
    if (res.status === 401 && !retried) {
      // A cached token the host no longer takes: mint a fresh one, once.
      this.auth.drop(this.host.aud, method)
      await res.body?.cancel()
      return this.send<T>(method, url, init, true)
    }
    return readXrpc<T>(method, res)
  }
}
