import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A fresh unguessable token (codes, refresh tokens, request ids, CSRF tokens). */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')

/** What the database keeps of a bearer secret: its SHA-256, so a stolen row is no token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

/** Constant-time equality of two strings (CSRF tokens, device cookies). */
export function sameSecret(a: string | undefined, b: string | undefined | null): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** PKCE S256 (RFC 7636 section 4.2): base64url(SHA-256(verifier)). */
export const s256 = hashToken

export const nowS = () => Math.floor(Date.now() / 1000)
