import type { IncomingHttpHeaders } from 'node:http'
import { DpopNonce, OAuthVerifier, type DpopProof } from '@atproto/oauth-provider/verifier'
import { decodeJwt } from 'jose'
import type { HostDb } from '../db/index.js'
import { DpopRefusal, answerDpopRefusal, type DpopChecker, type DpopResponse } from './dpop-answers.js'
import { DatabaseReplayStore } from './dpop-replay-store.js'

/** The longest proof id the host stores: ids go into the database. */
const MAX_JTI_LENGTH = 256

export interface DpopRequest {
  method?: string
  originalUrl?: string
  url?: string
  headers: IncomingHttpHeaders
}

export interface VerifiedDpopProof {
  /** JWK SHA-256 thumbprint of the proof's key (RFC 7638), what tokens are bound to. */
  jkt: string
  jti: string
}

const invalid = (message: string) => new DpopRefusal('InvalidDpop', message)
const required = () => new DpopRefusal('DpopRequired', 'This request needs a DPoP proof in the "DPoP" header (RFC 9449)')

/**
 * DPoP proofs (RFC 9449) for `getGroupAuth`, for requests made with the credential it
 * grants (spec section 5) and for the group OAuth server. The checks are
 * `@atproto/oauth-provider`'s, as the atproto PDS makes them (its `OAuthVerifier`'s
 * `DpopManager`: `typ: dpop+jwt`, a public `jwk` that signed it, `htm`, `htu`, `iat`,
 * `jti`, the nonce, `ath` when it accompanies an access token; its `ReplayManager` over
 * the host's database, ./dpop-replay-store.ts). The verifier's token checks are not used:
 * the host's tokens are its own (./group-token.ts, ../oauth/access-token.ts).
 *
 * The host always demands a nonce of its own (RFC 9449 section 9): HMAC-based and
 * rotating (`DpopNonce`), from a secret kept in the database so a restart does not
 * invalidate nonces just handed out. A proof without a valid one is answered with the
 * current nonce in `DPoP-Nonce`, and the caller repeats the request once (spec section
 * 5.6). Every response to an accepted proof carries the next nonce too, so a caller that
 * keeps it rarely needs the retry; other refusals carry none, so that a 401 with
 * `DPoP-Nonce` always means "retry". How each refusal is answered: ./dpop-answers.ts.
 */
export class DpopVerifier {
  private readonly library: OAuthVerifier
  /** The same nonces the library's `DpopManager` checks (one secret), for the check before it. */
  private readonly nonces: DpopNonce

  constructor(db: HostDb, nonceSecret: Uint8Array, private readonly publicUrl: string) {
    this.library = new OAuthVerifier({
      issuer: new URL(publicUrl).origin,
      keyset: [],
      dpopSecret: nonceSecret,
      replayStore: new DatabaseReplayStore(db),
    })
    this.nonces = new DpopNonce(nonceSecret)
  }

  /**
   * Verifies the request's proof and answers with the next nonce: a proof by the key
   * `boundTo` when given, carrying the `ath` of `accessToken` when given. A refused proof
   * throws what `checker` answers with (./dpop-answers.ts).
   */
  async verify(req: DpopRequest, res: DpopResponse, opts: { checker: DpopChecker; accessToken?: string; boundTo?: string }): Promise<VerifiedDpopProof> {
    // A `DpopNonce` moves on to the current nonces only when one is handed out (`check`
    // does not), so both, the library's and the one checked before it, are moved on first:
    // otherwise a host that handed none out for a few minutes would find every nonce stale.
    const nextNonce = this.nonces.next()
    this.library.nextDpopNonce()
    try {
      const proof = await this.check(req, opts)
      res.setHeader('DPoP-Nonce', nextNonce)
      return proof
    } catch (err) {
      const refusal = DpopRefusal.of(err)
      if (!refusal) throw err
      if (refusal.reason === 'use_dpop_nonce') res.setHeader('DPoP-Nonce', nextNonce)
      throw answerDpopRefusal(opts.checker, refusal, res)
    }
  }

  private async check(req: DpopRequest, opts: { accessToken?: string; boundTo?: string }): Promise<VerifiedDpopProof> {
    const header = req.headers.dpop
    if (header === undefined || header === '') throw required()
    this.checkNonce(header)
    const url = new URL(req.originalUrl ?? req.url ?? '/', this.publicUrl)
    const proof = await this.library.dpopManager.checkProof(req.method ?? '', url, req.headers, opts.accessToken)
    if (!proof) throw required()
    this.checkWhatTheLibraryAllows(proof)
    if (opts.boundTo !== undefined && proof.jkt !== opts.boundTo) {
      throw invalid('The DPoP proof is signed by another key than the one this credential is bound to')
    }
    // Per key, so that one caller cannot use up another's ids.
    if (!(await this.library.replayManager.uniqueDpop(proof.jti, proof.jkt))) {
      throw invalid('This DPoP proof was used before: make a fresh proof (new jti) for every request')
    }
    return { jkt: proof.jkt, jti: proof.jti }
  }

  /**
   * The nonce before anything else: the library checks it after the signature, and a
   * proof that will be answered with a nonce challenge anyway should cost no signature
   * check (issue 22: a nonce-less proof, never consumed, could be sent again and again).
   * What does not decode is left to the library to refuse.
   */
  private checkNonce(header: string | string[]): void {
    if (typeof header !== 'string') return
    let nonce: unknown
    try {
      nonce = decodeJwt(header).nonce
    } catch {
      return
    }
    if (typeof nonce === 'string' && this.nonces.check(nonce)) return
    throw new DpopRefusal('use_dpop_nonce', nonce === undefined ? 'This host requires a nonce in the DPoP proof' : 'The DPoP nonce is stale; use the one in DPoP-Nonce')
  }

  /** Checks the library leaves out, for old clients this host never had. */
  private checkWhatTheLibraryAllows(proof: DpopProof): void {
    // RFC 9449 section 4.2: the URL without query and fragment (the library drops them before comparing).
    if (/[?#]/.test(proof.htu)) throw invalid('The DPoP proof\'s "htu" must be the request URL without query or fragment')
    if (proof.jti.length > MAX_JTI_LENGTH) throw invalid(`The DPoP proof's "jti" may have at most ${MAX_JTI_LENGTH} characters`)
  }
}
