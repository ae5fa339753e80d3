import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { AuthRequiredError } from '@atproto/xrpc-server'
import { DpopNonce } from '@atproto/oauth-provider/verifier'
import { EmbeddedJWK, calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import type { HostDb } from '../db/index.js'
import { proofKeyOf } from './dpop-jwk.js'
import { challengeValue } from './www-authenticate.js'

/** How far a proof's `iat` may be from the host's clock, either way, in seconds. */
export const DPOP_IAT_WINDOW_S = 120

/** Signature algorithms a proof may use: asymmetric only (RFC 9449 section 4.2). */
const ASYMMETRIC_ALGS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']

const MAX_JTI_LENGTH = 256
const PRUNE_EVERY_MS = 60_000

export interface DpopRequest {
  method?: string
  originalUrl?: string
  url?: string
  headers: IncomingHttpHeaders
}

export interface DpopResponse {
  setHeader(name: string, value: string): unknown
}

/**
 * A proof the host does not accept. Which status it gets depends on the route: 400 on
 * `getGroupAuth` (spec section 7), a 401 challenge where a token is used (RFC 9449
 * section 7.1); see group-auth.ts.
 */
export class DpopProofError extends Error {
  constructor(
    readonly error: 'DpopRequired' | 'InvalidDpop',
    message: string,
  ) {
    super(message)
  }
}

const invalid = (message: string) => new DpopProofError('InvalidDpop', message)

export interface VerifiedDpopProof {
  /** JWK SHA-256 thumbprint of the proof's key (RFC 7638), what tokens are bound to. */
  jkt: string
  jti: string
}

/**
 * DPoP proofs (RFC 9449) for `getGroupAuth` and for requests made with the credential
 * it grants (spec section 5). A proof is a JWT with `typ: dpop+jwt`, an asymmetric
 * `alg`, the public `jwk` in its header, and `htm`, `htu`, `iat`, `jti` and `nonce`
 * claims (`ath` too, when it accompanies an access token).
 *
 * The host always demands a nonce of its own (RFC 9449 section 9): HMAC-based and
 * rotating (`DpopNonce`, as the atproto OAuth provider issues them, from a secret kept
 * in the database so a restart does not invalidate nonces just handed out). A proof
 * without a valid one is answered 401 with the current nonce in `DPoP-Nonce`, and the
 * caller repeats the request once (spec section 5.6). Every response to an accepted
 * proof carries the next nonce too, so a caller that keeps it rarely needs the retry;
 * other refusals carry none, so that a 401 with `DPoP-Nonce` always means "retry".
 *
 * Each `jti` is accepted once. Seen ids are kept in the database until their proof's
 * `iat` leaves the window, so a restart does not reopen the replay window.
 */
export class DpopVerifier {
  private lastPrune = 0

  constructor(
    private readonly db: HostDb,
    private readonly nonces: DpopNonce,
    private readonly publicUrl: string,
  ) {}

  /** Hands the caller the current nonce, for its next proof. */
  private offerNonce(res: DpopResponse): void {
    res.setHeader('DPoP-Nonce', this.nonces.next())
  }

  /**
   * Verifies the request's proof and answers with the next nonce. Throws a
   * `DpopProofError`: `DpopRequired` (no proof) or `InvalidDpop` (a proof that fails a
   * check, a replayed one, or one by another key than `boundTo`); or a 401
   * `use_dpop_nonce` with `WWW-Authenticate` and `DPoP-Nonce` set (no nonce, or a stale
   * one). Only that challenge and an accepted proof set `DPoP-Nonce`.
   */
  async verify(req: DpopRequest, res: DpopResponse, opts: { accessToken?: string; boundTo?: string } = {}): Promise<VerifiedDpopProof> {
    const proof = req.headers.dpop
    if (proof === undefined || proof === '') {
      throw new DpopProofError('DpopRequired', 'This request needs a DPoP proof in the "DPoP" header (RFC 9449)')
    }
    if (typeof proof !== 'string' || proof.includes(',')) throw invalid('Send exactly one DPoP proof')

    // Everything that needs no signature first, the nonce included: a proof that would be
    // answered with a nonce challenge anyway costs no signature check (issue 22).
    let header
    let payload
    try {
      header = decodeProtectedHeader(proof)
      payload = decodeJwt(proof)
    } catch {
      throw invalid('The DPoP proof is not a JWT')
    }
    // Checked by hand before any library sees it: a header's `jwk` is whatever JSON the
    // caller chose (a string, an array, a private key...).
    const key = proofKeyOf(header.jwk)
    if (typeof key === 'string') throw invalid(key)
    // As jwtVerify checks them below (it compares `typ` without case or "application/").
    if (typeof header.typ !== 'string' || header.typ.toLowerCase().replace(/^application\//, '') !== 'dpop+jwt') throw invalid('The DPoP proof\'s "typ" must be dpop+jwt')
    if (typeof header.alg !== 'string' || !ASYMMETRIC_ALGS.includes(header.alg)) throw invalid('The DPoP proof must be signed with an asymmetric algorithm')

    const { htm, htu, iat, jti, nonce, ath } = payload as Record<string, unknown>
    if (htm !== req.method) throw invalid(`The DPoP proof's "htm" must be the request method (${req.method})`)
    const expected = this.requestUrl(req)
    if (typeof htu !== 'string' || normalizeHtu(htu) !== expected) {
      throw invalid(`The DPoP proof's "htu" must be the request URL without query or fragment (${expected})`)
    }
    const now = Math.floor(Date.now() / 1000)
    if (typeof iat !== 'number' || Math.abs(now - iat) > DPOP_IAT_WINDOW_S) {
      throw invalid(`The DPoP proof's "iat" must be within ${DPOP_IAT_WINDOW_S} seconds of now; check the clock and make a fresh proof`)
    }
    if (typeof jti !== 'string' || !jti || jti.length > MAX_JTI_LENGTH) {
      throw invalid(`The DPoP proof needs a "jti" of 1 to ${MAX_JTI_LENGTH} characters`)
    }
    if (typeof nonce !== 'string' || !this.nonces.check(nonce)) {
      this.offerNonce(res)
      throw useDpopNonce(res, nonce === undefined ? 'This host requires a nonce in the DPoP proof' : 'The DPoP nonce is stale; use the one in DPoP-Nonce')
    }
    if (opts.accessToken !== undefined && ath !== sha256(opts.accessToken)) {
      throw invalid('The DPoP proof\'s "ath" must be the SHA-256 hash (base64url) of the access token it accompanies')
    }
    try {
      await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ASYMMETRIC_ALGS })
    } catch (err) {
      throw invalid(`The DPoP proof does not verify: ${(err as Error).message}`)
    }

    const jkt = await calculateJwkThumbprint(key, 'sha256')
    if (opts.boundTo !== undefined && jkt !== opts.boundTo) {
      throw invalid('The DPoP proof is signed by another key than the one this credential is bound to')
    }
    await this.consumeJti(jkt, jti, iat)
    this.offerNonce(res)
    return { jkt, jti }
  }

  /** The URL a proof's `htu` must name: where peers reach this host, plus the path. */
  private requestUrl(req: DpopRequest): string {
    const url = new URL(req.originalUrl ?? req.url ?? '/', this.publicUrl)
    return url.origin + url.pathname
  }

  /**
   * Remembers a proof id until its `iat` has left the window (after which the proof is
   * refused anyway). Ids are kept per key, so one caller cannot use up another's.
   */
  private async consumeJti(jkt: string, jti: string, iat: number): Promise<void> {
    const now = Date.now()
    if (now - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = now
      await this.db.deleteFrom('dpop_jti').where('expiresAt', '<', Math.floor(now / 1000)).execute()
    }
    const res = await this.db
      .insertInto('dpop_jti')
      .values({ jti: `${jkt}.${jti}`, expiresAt: iat + DPOP_IAT_WINDOW_S })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst()
    if (Number(res.numInsertedOrUpdatedRows) === 0) throw invalid('This DPoP proof was used before: make a fresh proof (new jti) for every request')
  }
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url')

/** `htu` compared as RFC 9449 section 4.3 says: normalized, no query, no fragment. */
function normalizeHtu(htu: string): string | null {
  let url: URL
  try {
    url = new URL(htu)
  } catch {
    return null
  }
  if (url.search || url.hash || url.username || url.password || !['http:', 'https:'].includes(url.protocol)) return null
  return url.origin + url.pathname
}

/**
 * The nonce challenge, as a resource server sends it (RFC 9449 section 9) and as the
 * atproto PDS does: 401, `WWW-Authenticate: DPoP error="use_dpop_nonce"`, the nonce in
 * `DPoP-Nonce`, and `use_dpop_nonce` as the XRPC error name.
 */
function useDpopNonce(res: DpopResponse, message: string): AuthRequiredError {
  res.setHeader('WWW-Authenticate', challengeValue('use_dpop_nonce', message))
  return new AuthRequiredError(message, 'use_dpop_nonce')
}

export { DpopNonce }
