import type { Output, ProcedureInput, ProcedureNsid, QueryNsid, QueryParams } from './methods.js'
import { hostTimeoutMs } from '../network.js'
import type { ServiceAuthCache } from './service-auth-cache.js'
import { callProcedure, callQuery } from './validated-call.js'
import { sendWithTimeLimit } from './time-limit.js'

/** The public reads of a group's repository (no sign-in, as from any PDS). */
export type PublicRead = 'com.atproto.repo.getRecord' | 'com.atproto.repo.listRecords'

export interface HostAddress {
  url: string
  /** `<host service DID>#groups` */
  aud: string
}

/**
 * Calls a group host's methods with service auth from the person's own PDS, straight
 * to the host with no proxy header (spec section 4). Each method is typed from the
 * lexicons and each answer checked against them (./validated-call.ts).
 */
export class HostClient {
  private readonly peer: { kind: 'host'; url: string }

  constructor(
    readonly host: HostAddress,
    private readonly auth: ServiceAuthCache,
    /** The guarded fetch for host calls (node/safe-fetch.ts createHostCallFetch): never the bare global. */
    private readonly fetchImpl: typeof globalThis.fetch,
    /** The longest wait for one answer (network.ts): a host that accepts and never answers must not hold a group's queue. */
    private readonly timeoutMs: number = hostTimeoutMs(),
  ) {
    this.peer = { kind: 'host', url: host.url }
  }

  query<M extends QueryNsid>(method: M, params: QueryParams<M>): Promise<Output<M>> {
    return callQuery((path, init) => this.send(method, path, init), this.peer, method, params)
  }

  /**
   * A read anyone may make, sent without service auth: the group's public repository, as
   * any PDS serves one (issue 28). The sign-in need not grant these methods, and the host
   * learns nothing of who reads.
   */
  publicQuery<M extends PublicRead>(method: M, params: QueryParams<M>): Promise<Output<M>> {
    return callQuery(
      (path, init) => sendWithTimeLimit(method, init, (withLimit) => this.fetchImpl(new URL(path, this.host.url), withLimit), this.timeoutMs),
      this.peer,
      method,
      params,
    )
  }

  procedure<M extends ProcedureNsid>(method: M, input: ProcedureInput<M>): Promise<Output<M>> {
    return callProcedure((path, init) => this.send(method, path, init), this.peer, method, input)
  }

  private async send(method: string, path: string, init: RequestInit, retried = false): Promise<Response> {
    const token = await this.auth.get(this.host.aud, method)
    const headers = new Headers(init.headers)
    headers.set('authorization', `Bearer ${token}`)
    const res = await sendWithTimeLimit(method, { ...init, headers }, (withLimit) => this.fetchImpl(new URL(path, this.host.url), withLimit), this.timeoutMs)
    if (res.status === 401 && !retried) {
      // A cached token the host no longer takes: mint a fresh one, once.
      this.auth.drop(this.host.aud, method)
      await res.body?.cancel()
      return this.send(method, path, init, true)
    }
    return res
  }
}
