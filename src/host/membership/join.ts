import type { Transaction } from 'kysely'
import type { GroupTable, HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { admit } from './admit.js'
import { refuseIfCallerBanned } from './bans.js'
import { redeemableInvite } from './invites.js'
import { pendingRequestOf } from './join-requests.js'
import { isMember } from './members.js'
import { openJoinRequest } from './new-join-request.js'

type Tx = Transaction<HostDatabaseSchema>

/**
 * `caller` asks to join, in a transaction holding the group's lock. An outstanding
 * invite for them is redeemed under any policy and admits; otherwise `open` admits,
 * `approval` leaves a pending request (asking again while one is pending answers
 * `pending` without a second request), `invite` refuses (`InviteRequired`). A banned
 * person is refused under every policy, invite or not (`Forbidden`). One person may make
 * only so many requests to a group a day (new-join-request.ts).
 */
export async function askToJoin(tx: Tx, group: GroupTable, caller: string, message: string | null): Promise<'admitted' | 'pending'> {
  const now = new Date().toISOString()
  if (await isMember(tx, group.did, caller)) throw refuse('AlreadyMember', 'You are already a member of this group')
  await refuseIfCallerBanned(tx, group.did, caller)

  const invite = await redeemableInvite(tx, group.did, caller, now)
  if (invite) {
    await admit(tx, group.did, caller, { roles: ['member'], by: null, invite: invite.uri }, now)
    return 'admitted'
  }
  if (group.joinPolicy === 'invite') {
    throw refuse('InviteRequired', 'This group admits people by invitation only, and you have no invite')
  }
  if (group.joinPolicy === 'open') {
    await admit(tx, group.did, caller, { roles: ['member'], by: null }, now)
    return 'admitted'
  }
  if (!(await pendingRequestOf(tx, group.did, caller))) await openJoinRequest(tx, group.did, caller, message, now)
  return 'pending'
}
