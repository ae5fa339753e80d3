import { AuthRequiredError } from '@atproto/xrpc-server'
import type { HostDb } from '../db/index.js'
import type { GroupAuth } from './group-auth.js'
import { liveSession } from '../oauth/sessions.js'
import { spaceScopesFor } from '../../shared/space-scope.js'
import { GRANTED_ACTIONS } from '../spaces/scope.js'
import type { WriteGrant } from '../spaces/group-writes.js'
import { repoScopesIn } from '../repo/authorize.js'

/** What reading a group credential needs: the two kinds of token, and the database for sessions. */
export interface WriteGrantDeps {
  db: HostDb
  groupAuth: Pick<GroupAuth, 'tokens' | 'oauthTokens'>
}

/**
 * What the token lets its holder write: a `getGroupAuth` credential's one space and the
 * public repo's collections it was granted, or a session's `space:` and `repo:` scopes.
 */
export async function writeGrantOf(ctx: WriteGrantDeps, token: string): Promise<WriteGrant> {
  const { tokens, oauthTokens } = ctx.groupAuth
  if (!oauthTokens.claimsToBeOurs(token)) {
    const g = await tokens.verify(token)
    return {
      group: g.sub,
      actor: g.actor,
      jkt: g.jkt,
      spaces: [{ space: g.space, collections: g.collections, actions: GRANTED_ACTIONS }],
      repoScopes: (g.repoCollections ?? []).map((c) => `repo:${c}`),
    }
  }
  const claims = await oauthTokens.verify(token)
  const session = await liveSession(ctx.db, claims.sid)
  if (!session || session.groupDid !== claims.sub) throw new AuthRequiredError('This session has ended: sign in again', 'InvalidToken')
  const spaces = spaceScopesFor(claims.scope, claims.sub)
  return { group: claims.sub, actor: session.personDid, jkt: claims.jkt, spaces, repoScopes: repoScopesIn(claims.scope) }
}
