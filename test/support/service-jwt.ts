import type { Keypair } from '@atproto/crypto'

/**
 * A service-auth JWT with exactly the claims given, signed with `key` (for negative auth
 * cases that `createServiceJwt` cannot make: no `iat`, no `jti`, odd lifetimes).
 */
export async function signServiceJwt(key: Keypair, claims: Record<string, unknown>): Promise<string> {
  const part = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url')
  const signed = `${part({ typ: 'JWT', alg: key.jwtAlg })}.${part(claims)}`
  const sig = await key.sign(Buffer.from(signed, 'utf8'))
  return `${signed}.${Buffer.from(sig).toString('base64url')}`
}
