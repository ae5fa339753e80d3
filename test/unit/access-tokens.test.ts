import { afterEach, describe, expect, it, vi } from 'vitest'
import { SignJWT } from 'jose'
import { ACCESS_TOKEN_TTL_S, AccessTokens } from '../../src/host/auth/access-tokens.js'
import { GROUP_CREDENTIAL } from '../../src/host/auth/group-token.js'
import { SESSION_ACCESS_TOKEN } from '../../src/host/oauth/access-token.js'

const secret = (n: number) => new Uint8Array(32).fill(n)
const SERVICE = 'did:plc:hostaaaaaaaaaaaaaaaaaaaa'
const ORIGIN = 'https://host.example'
const G = 'did:plc:groupaaaaaaaaaaaaaaaaaaa'
const grant = { sub: G, actor: 'did:plc:memberaaaaaaaaaaaaaaaaaa', space: `at://${G}/space/a.b/self`, collections: ['*'], scope: 'atproto', jkt: 'thumb' }
const session = { sub: G, sid: 'session-1', clientId: 'http://localhost', scope: 'atproto', jkt: 'thumb' }

describe('the host’s access tokens, both kinds', () => {
  afterEach(() => vi.useRealTimers())
  const credentials = new AccessTokens(GROUP_CREDENTIAL, secret(1), SERVICE)
  const sessions = new AccessTokens(SESSION_ACCESS_TOKEN, secret(2), ORIGIN)

  it('gives back what each kind carries, for 15 minutes', async () => {
    const minted = await credentials.mint(grant)
    expect(minted.expiresIn).toBe(ACCESS_TOKEN_TTL_S)
    expect(minted.expiresAt.getTime() - Date.now()).toBeGreaterThan((ACCESS_TOKEN_TTL_S - 5) * 1000)
    await expect(credentials.verify(minted.token)).resolves.toEqual(grant)
    await expect(sessions.verify((await sessions.mint(session)).token)).resolves.toEqual(session)
  })

  it('tells the kinds apart by issuer, and takes neither for the other', async () => {
    const credential = (await credentials.mint(grant)).token
    const access = (await sessions.mint(session)).token
    expect([sessions.claimsToBeOurs(access), sessions.claimsToBeOurs(credential), sessions.claimsToBeOurs('junk')]).toEqual([true, false, false])
    await expect(sessions.verify(credential)).rejects.toMatchObject({ customErrorName: 'InvalidToken', message: 'The access token is not one this host issued' })
    await expect(credentials.verify(access)).rejects.toMatchObject({ customErrorName: 'InvalidToken', message: 'The group credential is not one this host issued' })
  })

  it('refuses an expired token, saying how to get a new one', async () => {
    const { token } = await credentials.mint(grant)
    vi.useFakeTimers({ now: Date.now() + (ACCESS_TOKEN_TTL_S + 60) * 1000 })
    await expect(credentials.verify(token)).rejects.toMatchObject({ customErrorName: 'ExpiredToken', message: expect.stringContaining('example.groups.getGroupAuth') })
  })

  it('refuses a token signed with the secret but missing its kind’s claims', async () => {
    const now = Math.floor(Date.now() / 1000)
    const bare = await new SignJWT({ cnf: { jkt: 'thumb' } })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(SERVICE)
      .setAudience(SERVICE)
      .setSubject(G)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(secret(1))
    await expect(credentials.verify(bare)).rejects.toMatchObject({ customErrorName: 'InvalidToken', message: 'The group credential is malformed' })
  })
})
