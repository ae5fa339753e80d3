import type { HostContext } from '../context.js'
import type { InviteTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'
import { TID } from '@atproto/common-web'

/** The collection invites are addressed under in the group's repo. */
export const INVITE_COLLECTION = 'example.groups.invite'

/**
 * The address of a new invite. An invitee whose DID resolves gets a record address in
 * the group's repo; one whose DID does not resolve (yet) has nowhere to be told, so the
 * invite is `pending:<did>` (spec section 3). Either way it is stored here and redeemed
 * when the invitee asks to join; a failed lookup only changes the form of the address.
 */
export async function newInviteUri(ctx: HostContext, groupDid: string, invitee: string): Promise<string> {
  const doc = await ctx.idResolver.did.resolve(invitee).catch(() => null)
  return doc ? `at://${groupDid}/${INVITE_COLLECTION}/${TID.nextStr()}` : `pending:${invitee}`
}

/** A stored invite as the lexicons show it (`example.groups.defs#invite`). */
export function inviteView(row: Omit<InviteTable, 'id'>): Defs.Invite {
  return {
    uri: row.uri,
    invitee: row.invitee,
    createdAt: row.createdAt,
    ...(row.expiresAt !== null ? { expiresAt: row.expiresAt } : {}),
    ...(row.message !== null ? { message: row.message } : {}),
  }
}
