import { TID } from '@atproto/common-web'
import { TokenInvalidError, TokenRefreshError, TokenRevokedError, type OAuthSession } from '@atproto/oauth-client'
import { allowsCalendar, CALENDAR_EVENT_COLLECTION, type SpaceAction } from '../../../shared/group-scope.js'
import { calendarSpace, eventRecord } from '../calendar/calendar-space.js'
import { UserFacingError } from '../ipc/errors.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { callProcedure, type Send } from '../xrpc/validated-call.js'
import { sendWithTimeLimit } from '../xrpc/time-limit.js'
import type { EventFields } from '../actions/action-spec.js'

const CREATE = 'com.atproto.space.createRecord'

/**
 * Writes the group's calendar as the group through its OAuth session (no getGroupAuth):
 * the session's fetch handler sends the DPoP-bound token to the group's host, which is
 * the group's `atproto_pds`, and answers nonce challenges itself. The granted scope is
 * checked first, so an action the host did not grant is never attempted.
 */
export async function createEventAsGroup(
  live: { session: OAuthSession; scope: string },
  event: EventFields,
): Promise<{ uri: string; rkey: string }> {
  const groupDid = live.session.did
  requireAbility(live.scope, groupDid, 'create')
  const rkey = TID.nextStr()
  const body = { space: calendarSpace(groupDid), repo: groupDid, collection: CALENDAR_EVENT_COLLECTION, rkey, record: eventRecord(event, new Date().toISOString()) }
  const send: Send = (path, init) =>
    sendWithTimeLimit(CREATE, init, async (timed) => {
      try {
        return await live.session.fetchHandler(path, timed)
      } catch (err) {
        // The session's own refresh failed: the host ended it (signed out, roles gone).
        if (err instanceof TokenRefreshError || err instanceof TokenInvalidError || err instanceof TokenRevokedError) {
          throw new UserFacingError('SignInRequired', 'Your sign-in as this group has ended. Act as the group again to continue.')
        }
        throw err
      }
    })
  try {
    // Checked against the lexicon like every other answer from a group host.
    const { uri } = await callProcedure(send, { kind: 'host', url: live.session.serverMetadata.issuer }, CREATE, body)
    return { uri, rkey }
  } catch (err) {
    throw plainRefusal(err)
  }
}

function requireAbility(scope: string, groupDid: string, action: SpaceAction) {
  if (!allowsCalendar(scope, groupDid, action)) {
    throw new UserFacingError('NotGranted', 'Signing in as this group did not grant changing its calendar that way (your roles decide what the host grants).')
  }
}

/** What the host's refusals mean for someone acting as the group. */
function plainRefusal(err: unknown): unknown {
  if (!(err instanceof XrpcCallError)) return err
  if (err.error === 'SpaceNotFound') {
    return new UserFacingError('SpaceNotFound', 'This group has no calendar yet. An organizer can start it by adding an event from their own account.')
  }
  if (err.status === 401 || err.status === 403 || err.error === 'Forbidden') {
    return new UserFacingError('NotGranted', 'The group’s host no longer lets this session do that: your roles in the group may have changed. Act as the group again.')
  }
  return err
}
