import { createDpopKey, dpopProof, type DpopKey } from '@node/dpop.js'
import type { HostAddress } from '../xrpc/host-client.js'
import type { ServiceAuthCache } from '../xrpc/service-auth-cache.js'
import { sendWithTimeLimit } from '../xrpc/time-limit.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import type { Output, ProcedureInput } from '../xrpc/methods.js'
import { callProcedure, type Send } from '../xrpc/validated-call.js'

/** The host's answer to getGroupAuth (spec section 2), as its lexicon types it. */
export type GroupGrant = Output<'example.groups.getGroupAuth'>

/** The record writes a group credential makes (spec section 5). */
export type SpaceWrite = 'com.atproto.space.createRecord' | 'com.atproto.space.putRecord' | 'com.atproto.space.deleteRecord'
/** The writes to the group's public repository (issue 28). */
export type RepoWrite = 'com.atproto.repo.createRecord' | 'com.atproto.repo.putRecord'

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
    /** The guarded fetch for host calls (node/safe-fetch.ts createHostCallFetch): the grant names where writes go, and a host may name anywhere. */
    private readonly fetch: typeof globalThis.fetch,
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
    const grant = await callProcedure(this.dpopSend(key, url, `Bearer ${token}`, undefined, GET_GROUP_AUTH), { kind: 'host', url: host.url }, GET_GROUP_AUTH, { group: groupDid, space })
    return { grant, key, renewAt: Math.min(Date.parse(grant.expiresAt) - RENEW_MARGIN_MS, this.now() + 14 * 60_000) }
  }

  /**
   * A record write as the group: `Authorization: DPoP <accessJwt>` with a proof
   * carrying `ath`. A refused token or proof (401: expired early, the host lost its
   * memory of the key, a proof it would not take) gets one fresh grant with a new key.
   */
  async write<M extends SpaceWrite>(host: HostAddress, groupDid: string, space: string, method: M, input: ProcedureInput<M>): Promise<Output<M>> {
    // The grant is for one space of one group: a write elsewhere is a bug here, not the host's to refuse.
    const target: ProcedureInput<SpaceWrite> = input
    if (target.space !== space || target.repo !== groupDid) throw new Error(`a write for ${target.repo} ${target.space} under the grant for ${groupDid} ${space}`)
    return this.send(host, groupDid, space, method, input)
  }

  /**
   * A write to the group's public repository (issue 28): the same credential, got for a
   * space the person's roles reach, carries the repo collections their roles may write
   * (`repoCollections`); one the grant does not name is refused here, in plain words.
   */
  async writeRepo<M extends RepoWrite>(host: HostAddress, groupDid: string, space: string, method: M, input: ProcedureInput<M>): Promise<Output<M>> {
    const target: ProcedureInput<RepoWrite> = input
    if (target.repo !== groupDid) throw new Error(`a write for ${target.repo} under the grant for ${groupDid}`)
    const { grant } = await this.grant(host, groupDid, space)
    if (!grant.repoCollections.includes(target.collection)) throw new XrpcCallError(method, 403, 'Forbidden', `Your role may not write ${target.collection} in the group's public repository`)
    return this.send(host, groupDid, space, method, input)
  }

  /** An image for a post, uploaded to the group's repository with the same credential (issue 28): its blob reference. */
  async uploadBlob(host: HostAddress, groupDid: string, space: string, bytes: Uint8Array, mimeType: string): Promise<Output<'com.atproto.repo.uploadBlob'>> {
    // The generated types give the server's side of a raw body (a stream); the client sends the bytes.
    return this.send(host, groupDid, space, 'com.atproto.repo.uploadBlob', bytes as unknown as ProcedureInput<'com.atproto.repo.uploadBlob'>, mimeType)
  }

  /** An image for records of the space (an event's picture, issue 27), uploaded with the space's credential: its blob reference. */
  async uploadSpaceBlob(host: HostAddress, groupDid: string, space: string, bytes: Uint8Array, mimeType: string): Promise<Output<'example.groups.uploadSpaceBlob'>> {
    return this.send(host, groupDid, space, 'example.groups.uploadSpaceBlob', bytes as unknown as ProcedureInput<'example.groups.uploadSpaceBlob'>, mimeType, { space })
  }

  private async send<M extends SpaceWrite | RepoWrite | 'com.atproto.repo.uploadBlob' | 'example.groups.uploadSpaceBlob'>(
    host: HostAddress,
    groupDid: string,
    space: string,
    method: M,
    input: ProcedureInput<M>,
    encoding?: string,
    params?: Record<string, string>,
  ): Promise<Output<M>> {
    for (let attempt = 0; ; attempt++) {
      const { grant, key } = await this.grant(host, groupDid, space)
      const url = new URL(`/xrpc/${method}`, grant.pds).toString()
      try {
        return await callProcedure(this.dpopSend(key, url, `DPoP ${grant.accessJwt}`, grant.accessJwt, method), { kind: 'host', url: grant.pds }, method, input, encoding, params)
      } catch (err) {
        if (!(err instanceof XrpcCallError && err.status === 401 && attempt === 0)) throw err
        this.drop(groupDid, space)
      }
    }
  }

  /** Sends to `url` with the authorization and a DPoP proof (answering one nonce challenge). */
  private dpopSend(key: DpopKey, url: string, authorization: string, accessToken: string | undefined, method: string): Send {
    return (path, init) =>
      this.withNonce(key, 'POST', url, accessToken, (dpop) => {
        const headers = new Headers(init.headers)
        headers.set('authorization', authorization)
        headers.set('dpop', dpop)
        // The proof names the URL without its query (RFC 9449 htu); the request carries the method's parameters.
        const query = path.includes('?') ? path.slice(path.indexOf('?')) : ''
        return sendWithTimeLimit(method, { ...init, headers }, (withLimit) => this.fetch(url + query, withLimit))
      })
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
