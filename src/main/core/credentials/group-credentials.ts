import { createDpopKey, dpopProof, type DpopKey } from '../../../node/dpop.js'
import type { HostAddress } from '../xrpc/host-client.js'
import type { ServiceAuthCache } from '../xrpc/service-auth-cache.js'
import { readXrpc, XrpcCallError } from '../xrpc/xrpc-error.js'

/** The host's answer to getGroupAuth (spec section 2). */
export interface GroupGrant {
  did: string
  accessJwt: string
  pds: string
  collections: string[]
  repoCollections: string[]
  scope: string
  expiresAt: string
}

interface HeldGrant {
  grant: GroupGrant
  /** Its own key, made for this grant and gone with it. */
  key: DpopKey
  renewAt: number
}

/** Renew this long before the 15 minutes end, so no write meets an expired token. */
const RENEW_MARGIN_MS = 60_000
const GET_GROUP_AUTH = 'example.groups.getGroupAuth'

/**
 * Writing as the group (spec section 5): a short-lived credential per (group, space)
 * from getGroupAuth, bound to a fresh non-extractable WebCrypto key that lives only in
 * this process's memory, renewed before it ends. Each host's latest DPoP nonce is
 * remembered, so a repeated write within a token's life costs no extra round trip;
 * a nonce challenge is answered once per request.
 */
export class GroupCredentials {
  private readonly grants = new Map<string, Promise<HeldGrant>>()
  /** Latest DPoP-Nonce per origin. */
  private readonly nonces = new Map<string, string>()
  /** Round trips spent on nonce challenges (for benchmarks). */
  nonceRetries = 0

  constructor(
    private readonly auth: ServiceAuthCache,
    private readonly now: () => number = Date.now,
  ) {}

  /** A live grant for the space, reusing the held one until shortly before it ends. */
  async grant(host: HostAddress, groupDid: string, space: string): Promise<{ grant: GroupGrant; key: DpopKey }> {
    const id = `${groupDid} ${space}`
    const held = this.grants.get(id)
    if (held) {
      const h = await held.catch(() => null)
      if (h && h.renewAt > this.now()) return h
    }
    const next = this.obtain(host, groupDid, space)
    this.grants.set(id, next)
    next.catch(() => this.grants.delete(id))
    return next
  }

  /** Forgets a grant the host no longer honours (roles changed, token refused). */
  drop(groupDid: string, space: string): void {
    this.grants.delete(`${groupDid} ${space}`)
  }

  private async obtain(host: HostAddress, groupDid: string, space: string): Promise<HeldGrant> {
    const key = await createDpopKey()
    const url = new URL(`/xrpc/${GET_GROUP_AUTH}`, host.url).toString()
    // The host takes a getGroupAuth token once; the same token serves the nonce retry,
    // which the host answers before it takes the token.
    const token = await this.auth.fresh(host.aud, GET_GROUP_AUTH)
    const res = await this.withNonce(key, 'POST', url, undefined, (dpop) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, dpop, 'content-type': 'application/json' },
        body: JSON.stringify({ group: groupDid, space }),
      }),
    )
    const grant = await readXrpc<GroupGrant>(GET_GROUP_AUTH, res)
    return { grant, key, renewAt: Math.min(Date.parse(grant.expiresAt) - RENEW_MARGIN_MS, this.now() + 14 * 60_000) }
  }

  /**
   * A record write as the group: `Authorization: DPoP <accessJwt>` with a proof
   * carrying `ath`. A refused token or proof (401: expired early, the host lost its
   * memory of the key, a proof it would not take) gets one fresh grant with a new key.
   */
  async write<T>(host: HostAddress, groupDid: string, space: string, method: string, body: Record<string, unknown>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const { grant, key } = await this.grant(host, groupDid, space)
      const url = new URL(`/xrpc/${method}`, grant.pds).toString()
      const res = await this.withNonce(key, 'POST', url, grant.accessJwt, (dpop) =>
        fetch(url, {
          method: 'POST',
          headers: { authorization: `DPoP ${grant.accessJwt}`, dpop, 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, space, repo: groupDid }),
        }),
      ).catch((err: unknown) => {
        throw new XrpcCallError(method, 0, 'HostUnreachable', (err as Error).message)
      })
      if (res.status === 401 && attempt === 0) {
        await res.body?.cancel()
        this.drop(groupDid, space)
        continue
      }
      return readXrpc<T>(method, res)
    }
  }

  /** Sends with a proof; on a nonce challenge (401 + DPoP-Nonce), once more with it. */
  private async withNonce(key: DpopKey, htm: string, htu: string, accessToken: string | undefined, send: (proof: string) => Promise<Response>) {
    const origin = new URL(htu).origin
    const attempt = async () => {
      const res = await send(await dpopProof(key, { htm, htu, nonce: this.nonces.get(origin), accessToken }))
      const nonce = res.headers.get('dpop-nonce')
      if (nonce) this.nonces.set(origin, nonce)
      return res
    }
    const first = await attempt()
    if (!(first.status === 401 && first.headers.has('dpop-nonce'))) return first
    await first.body?.cancel()
    this.nonceRetries++
    return attempt()
  }
}
