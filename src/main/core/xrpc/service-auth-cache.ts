/** Mints a service-auth token at the person's own PDS (`getServiceAuth`). */
export type MintServiceAuth = (aud: string, lxm: string, exp: number) => Promise<string>

const LIFETIME_S = 30 * 60
/** A single-use token is spent within seconds; a short life limits what a leak is worth. */
const SINGLE_USE_LIFETIME_S = 60
/** Stop reusing a token this long before it expires: clocks drift, requests take time. */
const MARGIN_S = 60

/**
 * Service-auth tokens per (audience, method), reused until shortly before they expire,
 * so a repeated action costs no PDS round trip (spec section 5: one token per `lxm`).
 */
export class ServiceAuthCache {
  private readonly tokens = new Map<string, { token: string; exp: number }>()
  private readonly inflight = new Map<string, Promise<{ token: string; exp: number }>>()

  constructor(
    private readonly mint: MintServiceAuth,
    private readonly nowS: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async get(aud: string, lxm: string): Promise<string> {
    return (await this.entry(aud, lxm)).token
  }

  /**
   * A token with its expiry (seconds since the epoch), reused as `get` reuses it: a
   * long-lived connection (the live change stream) renews itself before `exp`.
   */
  async entry(aud: string, lxm: string): Promise<{ token: string; exp: number }> {
    const key = `${aud} ${lxm}`
    const cached = this.tokens.get(key)
    if (cached && cached.exp - MARGIN_S > this.nowS()) return cached
    let pending = this.inflight.get(key)
    if (!pending) {
      const exp = this.nowS() + LIFETIME_S
      pending = this.mint(aud, lxm, exp)
        .then((token) => {
          const minted = { token, exp }
          this.tokens.set(key, minted)
          return minted
        })
        .finally(() => this.inflight.delete(key))
      this.inflight.set(key, pending)
    }
    return pending
  }

  /**
   * A fresh token, never cached or reused, for methods the host accepts each token for
   * once (`getGroupAuth`, decisions section 6.2).
   */
  async fresh(aud: string, lxm: string): Promise<string> {
    return this.mint(aud, lxm, this.nowS() + SINGLE_USE_LIFETIME_S)
  }

  /** Forgets a token the host refused (revoked session, rotated keys). */
  drop(aud: string, lxm: string): void {
    this.tokens.delete(`${aud} ${lxm}`)
  }
}
