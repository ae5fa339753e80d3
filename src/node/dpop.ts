import { webcrypto } from 'node:crypto'
import { SignJWT, calculateJwkThumbprint, exportJWK, type CryptoKey, type JWK } from 'jose'

/**
 * DPoP (RFC 9449) for a client of the group host: a fresh ES256 key whose private half
 * never leaves WebCrypto (non-extractable: no code, ours included, can read it out),
 * and proofs signed with it. The app's group credentials, the tests and the benches
 * all use this one implementation.
 */
export interface DpopKey {
  privateKey: CryptoKey
  /** The public key as it goes in a proof's header: kty, crv, x, y only. */
  jwk: JWK
  /** Its SHA-256 JWK thumbprint (RFC 7638), what a bound token's `cnf.jkt` names. */
  jkt: string
}

export async function createDpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])
  const { kty, crv, x, y } = await exportJWK(publicKey)
  const jwk = { kty, crv, x, y }
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') }
}

export interface ProofClaims {
  /** The request method, e.g. POST. */
  htm: string
  /** The request URL; query and fragment are dropped, as RFC 9449 wants. */
  htu: string
  /** The server's latest `DPoP-Nonce`, once it has sent one. */
  nonce?: string
  /** The access token the proof accompanies; its hash goes in `ath`. */
  accessToken?: string
}

export async function dpopProof(key: DpopKey, claims: ProofClaims): Promise<string> {
  const url = new URL(claims.htu)
  const ath = claims.accessToken === undefined ? undefined : await sha256Base64url(claims.accessToken)
  return new SignJWT({
    htm: claims.htm,
    htu: url.origin + url.pathname,
    ...(claims.nonce ? { nonce: claims.nonce } : {}),
    ...(ath ? { ath } : {}),
  })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk })
    .setIssuedAt()
    .setJti(webcrypto.randomUUID())
    .sign(key.privateKey)
}

async function sha256Base64url(value: string): Promise<string> {
  const digest = await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(value))
  return Buffer.from(digest).toString('base64url')
}

/** The server's "use this nonce" answer (spec section 5.6): 401 with a `DPoP-Nonce` header. */
export const isNonceChallenge = (res: Response) => res.status === 401 && res.headers.has('dpop-nonce')

/**
 * Sends a request with a fresh proof, and if the server answers with a nonce challenge,
 * once more with that nonce (spec section 5.6). Keeps the latest nonce the server sent
 * in `state`, so later requests usually need no retry.
 */
export async function fetchWithDpop(
  key: DpopKey,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer>; accessToken?: string },
  state: { nonce?: string } = {},
): Promise<Response> {
  const send = async () => {
    const proof = await dpopProof(key, { htm: init.method, htu: url, nonce: state.nonce, accessToken: init.accessToken })
    const res = await fetch(url, { method: init.method, body: init.body, headers: { ...init.headers, dpop: proof } })
    const nonce = res.headers.get('dpop-nonce')
    if (nonce) state.nonce = nonce
    return res
  }
  const first = await send()
  if (!isNonceChallenge(first)) return first
  await first.body?.cancel()
  return send()
}
