import type { OAuthSession } from '@atproto/oauth-client'
import { UserFacingError } from '../ipc/errors.js'
import { plainMessage } from '@shared/errors.js'
import { OWN_SERVER_SILENCE, sendWithTimeLimit } from '../xrpc/time-limit.js'
import { ownServerTimeoutMs } from '../network.js'
import { callProcedure, type Send } from '../xrpc/validated-call.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { scopeFromScopeMissing } from '../../../shared/scopes.js'

/**
 * A member's own records (acceptance, RSVPs) go to their own PDS through their own
 * session, `repo` = their DID (spec section 4). A stored write is not proof of
 * membership: the host decides afterwards (section 3).
 */
export async function memberWrite(
  session: OAuthSession,
  method: 'com.atproto.space.putRecord' | 'com.atproto.space.deleteRecord',
  body: { space: string; collection: string; rkey: string; record?: Record<string, unknown> },
): Promise<void> {
  try {
    await callProcedure(ownPdsSend(session, method), { kind: 'pds', url: session.serverMetadata.issuer }, method, { ...body, repo: session.did })
  } catch (err) {
    // A sign-in made before the collection was asked for (RSVPs moved to
    // community.lexicon.calendar.rsvp, a scope of its own): not a refusal, but something
    // only the person can end by signing in again, so the change waits for them.
    if (err instanceof XrpcCallError && err.error === 'ScopeMissingError') {
      throw new UserFacingError('ScopeMissingError', plainMessage('ScopeMissingError'), { scope: scopeFromScopeMissing(err.serverMessage) ?? `repo:${body.collection}` })
    }
    throw err
  }
}

/**
 * Requests to the person's own PDS through their session, with the same time limit as a
 * group host's: one it cannot reach or that never answers is transient
 * (`ServerUnreachable`, `ServerNotAnswering`: the outbox keeps the change), and one
 * without the space methods (404, 501) `SpacesUnsupported`.
 */
export function ownPdsSend(session: OAuthSession, method: string): Send {
  return async (path, init) => {
    const res = await sendWithTimeLimit(method, init, (i) => session.fetchHandler(path, i), ownServerTimeoutMs(), OWN_SERVER_SILENCE)
    if (res.status === 404 || res.status === 501) {
      await res.body?.cancel()
      throw new UserFacingError('SpacesUnsupported', plainMessage('SpacesUnsupported'))
    }
    return res
  }
}
