import { AuthRequiredError, type MethodAuthContext } from '@atproto/xrpc-server'
import { challenged } from './dpop-answers.js'
import type { WriteGrant } from '../spaces/group-writes.js'
import { noteCaller } from '../log/request-log.js'
import { writeGrantOf, type WriteGrantDeps } from './write-grant.js'
import type { GroupAuth } from './group-auth.js'

export interface GroupCredentials {
  credentials: WriteGrant
}

/**
 * Auth for writes made with a group credential (spec section 5.5):
 * `Authorization: DPoP <accessJwt>` and a proof by the key the token is bound to,
 * carrying `ath`. What the grant allows is checked by the method against the request.
 * The access token of a group session (the OAuth sign-in, decisions 6.6) is taken the
 * same way, with the same answers; its session must still be live (not revoked, not
 * ended), and the method re-checks the person's roles as for a credential.
 *
 * These routes consume tokens, so they answer as an RFC 9449 resource server (section
 * 7.1, decisions section 6.5): every refusal is a 401 with a `WWW-Authenticate: DPoP`
 * challenge, `invalid_token` for the access token and `invalid_dpop_proof` for the
 * proof, the body still `{error, message}`.
 */
export function groupCredentialAuth(ctx: WriteGrantDeps & { groupAuth: Pick<GroupAuth, 'dpop'> }) {
  return async ({ req, res }: MethodAuthContext): Promise<GroupCredentials> => {
    const { dpop } = ctx.groupAuth
    const match = /^DPoP\s+(\S+)$/i.exec(req.headers.authorization ?? '')
    if (!match) {
      // No credential of this kind at all: a challenge without an error code (RFC 6750 section 3.1).
      throw challenged(res, undefined, new AuthRequiredError('This needs a group credential: "Authorization: DPoP <accessJwt from example.groups.getGroupAuth>"', 'AuthMissing'))
    }
    const token = match[1]!
    const grant = await writeGrantOf(ctx, token).catch((err: unknown) => {
      throw challenged(res, 'invalid_token', err)
    })
    await dpop.verify(req, res, { checker: 'resource', accessToken: token, boundTo: grant.jkt })
    noteCaller(res, grant.actor)
    return { credentials: grant }
  }
}
