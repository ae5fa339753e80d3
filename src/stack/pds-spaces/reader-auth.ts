import { AuthRequiredError, ForbiddenError, verifyJwt, type MethodAuthContext } from '@atproto/xrpc-server'
import { parseSpaceAddress } from '../../shared/space-address.js'
import { nsidOfXrpcPath } from '../../shared/xrpc-path.js'
import { assertOwnRepo, sessionAuth, type SessionCredentials, type SpacesContext } from './context.js'
import { groupHostOf } from './group-host.js'

/** The PDS's own cap on a service-auth token's lifetime. */
const MAX_TOKEN_LIFETIME_S = 60 * 60

/** A group host reading members' records of one of its groups' spaces (decisions 6.1). */
export interface GroupHostReader {
  type: 'groupHost'
  /** The host's service DID: the token's issuer. */
  did: string
  aud: string
}

export type SpaceReader = GroupHostReader | SessionCredentials

const isGroupHost = (reader: SpaceReader): reader is GroupHostReader => reader.type === 'groupHost'

/**
 * The unverified claims of a bearer token that is service auth (it names a method),
 * or null for a session's token. Only used to route, and to read `iat` once verified.
 */
function serviceClaims(token: string): { lxm: string; iat?: unknown } | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { lxm?: unknown; iat?: unknown }
    return typeof payload.lxm === 'string' ? { lxm: payload.lxm, iat: payload.iat } : null
  } catch {
    return null
  }
}

/**
 * Who may read space records here: the author, with their own session (as on the write
 * routes), or a group host with service auth it signed with its service DID's key
 * (`lxm` = the method, `aud` = `<repo>#atproto_pds`). Whether that host is the space's
 * host depends on the space asked about, so `assertMayRead` finishes the check.
 */
export function spaceReaderAuth(ctx: SpacesContext) {
  const session = sessionAuth(ctx)
  return async (reqCtx: MethodAuthContext): Promise<{ credentials: SpaceReader }> => {
    const header = reqCtx.req.headers.authorization ?? ''
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : ''
    const claims = token ? serviceClaims(token) : null
    if (!claims) return (await session(reqCtx)) as { credentials: SessionCredentials }
    const payload = await verifyJwt(token, null, nsidOfXrpcPath(reqCtx.req.originalUrl ?? reqCtx.req.url ?? '') ?? '', (iss, forceRefresh) =>
      ctx.idResolver.did.resolveAtprotoKey(iss.split('#')[0]!, forceRefresh),
    ).catch((err: unknown) => {
      if (err instanceof AuthRequiredError) throw err
      throw new AuthRequiredError(`Service auth could not be verified: ${(err as Error).message}`, 'BadJwt')
    })
    if (payload.iss.includes('#')) throw new AuthRequiredError('A group host signs as its service DID, without a fragment', 'BadJwt')
    if (typeof claims.iat !== 'number' || payload.exp - claims.iat > MAX_TOKEN_LIFETIME_S) {
      throw new AuthRequiredError(`Service auth must say when it was issued and live at most ${MAX_TOKEN_LIFETIME_S} seconds`, 'BadJwt')
    }
    return { credentials: { type: 'groupHost', did: payload.iss, aud: payload.aud } }
  }
}

/**
 * The author reads their own records; a group host reads a member's records of a space
 * whose group it hosts, checked both ways (`groupHostOf`), with a token addressed to
 * that member's PDS service here, so a token is good for one member's repo only.
 */
export async function assertMayRead(ctx: SpacesContext, reader: SpaceReader, q: { space: string; repo: string }): Promise<void> {
  if (!isGroupHost(reader)) return assertOwnRepo(reader, q.repo)
  if (reader.aud !== `${q.repo}#atproto_pds`) {
    throw new AuthRequiredError(`This token is addressed to ${reader.aud}, not to ${q.repo}#atproto_pds`, 'BadJwt')
  }
  if (!(await ctx.pds.accountManager.getAccount(q.repo as `did:${string}:${string}`))) throw new ForbiddenError(`${q.repo} has no account on this PDS`)
  const authority = parseSpaceAddress(q.space)!.authority
  const host = await groupHostOf(ctx, authority).catch((err: Error) => {
    throw new ForbiddenError(`The host of ${authority} cannot be confirmed: ${err.message}`)
  })
  if (host.did !== reader.did) throw new ForbiddenError(`${reader.did} is not the host of ${authority}: only the space's host reads its members' records`)
}
