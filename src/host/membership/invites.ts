import { capReached } from '../limits/refusal.js'
import type { Kysely, Selectable, Transaction } from 'kysely'
import { TID } from '@atproto/common-web'
import type { HostDatabaseSchema, InviteTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import { refuseIfInviteeBanned } from './bans.js'
import { isMember } from './members.js'

type Db = Kysely<HostDatabaseSchema>
type Tx = Transaction<HostDatabaseSchema>

/** The collection invites are addressed under in the group's repo. */
export const INVITE_COLLECTION = 'example.groups.invite'

/**
 * The address of a new invite. An invitee whose DID resolves gets a record address in
 * the group's repo; one whose DID does not resolve (yet) has nowhere to be told, so the
 * invite is `pending:<did>` (spec section 3). Either way it is stored here and redeemed
 * when the invitee asks to join; a failed lookup only changes the form of the address.
 * Call it outside any transaction: a network lookup must not hold the database.
 */
export async function newInviteUri(didResolves: (did: string) => Promise<boolean>, groupDid: string, invitee: string): Promise<string> {
  const resolves = await didResolves(invitee).catch(() => false)
  return resolves ? `at://${groupDid}/${INVITE_COLLECTION}/${TID.nextStr()}` : `pending:${invitee}`
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

/**
 * Invites `invitee` at `uri` (from newInviteUri), or answers the address of the invite
 * already outstanding for them rather than making a second one. `AlreadyMember` for a
 * member; a banned person cannot be invited until the ban is lifted.
 */
export async function invite(tx: Tx, groupDid: string, invitee: string, uri: string, by: string, message: string | null): Promise<string> {
  if (await isMember(tx, groupDid, invitee)) throw refuse('AlreadyMember', `${invitee} is already a member of this group`)
  await refuseIfInviteeBanned(tx, groupDid, invitee)
  const existing = await tx
    .selectFrom('invite')
    .select('uri')
    .where('groupDid', '=', groupDid)
    .where('invitee', '=', invitee)
    .where('status', '=', 'outstanding')
    .executeTakeFirst()
  if (existing) return existing.uri
  await refuseIfDeclinedLately(tx, groupDid, invitee, new Date())
  await requireRoomForInvite(tx, groupDid, by)
  await tx
    .insertInto('invite')
    .values({ uri, groupDid, invitee, message, createdBy: by, createdAt: new Date().toISOString(), expiresAt: null, status: 'outstanding' })
    .execute()
  await recordChange(tx, groupDid, 'invite.created', uri)
  return uri
}

/**
 * The invite that lets `did` in when they ask to join, oldest first; an expired invite
 * no longer redeems.
 */
export function redeemableInvite(db: Db, groupDid: string, did: string, now: string): Promise<{ uri: string } | undefined> {
  return db
    .selectFrom('invite')
    .select('uri')
    .where('groupDid', '=', groupDid)
    .where('invitee', '=', did)
    .where('status', '=', 'outstanding')
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now)]))
    .orderBy('createdAt')
    .executeTakeFirst()
}

/**
 * A page of the outstanding invites, by row key, so pages never skip or repeat. An
 * expired invite no longer redeems, so it is not outstanding either.
 */
export function outstandingInvites(db: Db, groupDid: string, afterId: number | undefined, limit: number, now: string): Promise<Selectable<InviteTable>[]> {
  let query = db
    .selectFrom('invite')
    .selectAll()
    .where('groupDid', '=', groupDid)
    .where('status', '=', 'outstanding')
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now)]))
  if (afterId !== undefined) query = query.where('id', '>', afterId)
  return query.orderBy('id').limit(limit).execute()
}

/** Marks every invite still outstanding for `did` redeemed (`invite.redeemed` each). */
export async function redeemOutstanding(tx: Tx, groupDid: string, did: string): Promise<void> {
  await closeOutstanding(tx, groupDid, did, 'redeemed')
}

/** Withdraws every invite still outstanding for `did` (`invite.revoked` each); answers how many. */
export function revokeOutstanding(tx: Tx, groupDid: string, did: string): Promise<number> {
  return closeOutstanding(tx, groupDid, did, 'revoked')
}

/**
 * Withdraws the outstanding invite for `invitee` (`revokeInvite`). Conditional on the
 * invite still being outstanding, so revoking one the invitee has just redeemed answers
 * `InviteNotFound` and leaves the member be.
 */
export async function revokeInvite(tx: Tx, groupDid: string, invitee: string): Promise<void> {
  if (!(await revokeOutstanding(tx, groupDid, invitee))) {
    throw refuse('InviteNotFound', `There is no outstanding invite for ${invitee} in this group`)
  }
}

/**
 * The invitee turns the group's invite down (`declineInvite`): it no longer redeems and
 * leaves the group's list. Nothing outstanding is `InviteNotFound`.
 */
export async function declineInvite(tx: Tx, groupDid: string, invitee: string): Promise<void> {
  if (!(await closeOutstanding(tx, groupDid, invitee, 'declined'))) {
    throw refuse('InviteNotFound', 'There is no outstanding invite for you in this group')
  }
}

/**
 * How long a group may not invite again someone who turned its invite down: as long as
 * the change log keeps the decline (`--change-log-days`, 30 by default). Anyone who makes a
 * group can put an invite and its message in front of any DID (issue 35 #11); a "no" must
 * not be answered by the same invite the next minute. They may still ask to join.
 */
async function refuseIfDeclinedLately(tx: Tx, groupDid: string, invitee: string, now: Date): Promise<void> {
  // By the change log's index of who acted (the invitee declines), newest first.
  const declined = await tx
    .selectFrom('change')
    .select('createdAt')
    .where('groupDid', '=', groupDid)
    .where('actor', '=', invitee)
    .where('kind', '=', 'invite.declined')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!declined) return
  const day = (iso: string) => new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
  const since = Math.max(0, Math.floor((now.getTime() - Date.parse(declined.createdAt)) / 86_400_000))
  throw refuse(
    'InvalidRequest',
    `${invitee} turned down an invite from this group on ${day(declined.createdAt)} (${since === 0 ? 'today' : since === 1 ? 'a day ago' : `${since} days ago`}): ` +
      'the group cannot invite them again while this host keeps that answer (30 days by default); they can still ask to join',
  )
}

/** An invite waiting for its invitee, with the group it is to (listMyInvites). */
export type InviteToMe = Selectable<InviteTable> & { handle: string; displayName: string | null; joinPolicy: string }

/**
 * A page of the invites outstanding for `invitee` across this host's groups, oldest
 * first by row key (pages never skip or repeat), with each group's name; an expired
 * invite no longer redeems, so it is left out.
 */
export function invitesTo(db: Db, invitee: string, afterId: number | undefined, limit: number, now: string): Promise<InviteToMe[]> {
  let query = db
    .selectFrom('invite')
    .innerJoin('group', 'group.did', 'invite.groupDid')
    .selectAll('invite')
    .select(['group.handle', 'group.displayName', 'group.joinPolicy'])
    .where('invite.invitee', '=', invitee)
    .where('invite.status', '=', 'outstanding')
    .where((eb) => eb.or([eb('invite.expiresAt', 'is', null), eb('invite.expiresAt', '>', now)]))
  if (afterId !== undefined) query = query.where('invite.id', '>', afterId)
  return query.orderBy('invite.id').limit(limit).execute()
}

const CLOSED_CHANGE = { redeemed: 'invite.redeemed', revoked: 'invite.revoked', declined: 'invite.declined' } as const

/**
 * Answers the outstanding invites for `did` (redeemed, revoked or declined): the change
 * log says which, and the row goes. Nothing reads an answered invite again (a replayed
 * revoke or decline finds none outstanding either way), and anyone who makes a group can
 * invite, so keeping answered invites would let one group grow the host without bound.
 */
async function closeOutstanding(tx: Tx, groupDid: string, did: string, status: keyof typeof CLOSED_CHANGE): Promise<number> {
  const closed = await tx
    .deleteFrom('invite')
    .where('groupDid', '=', groupDid)
    .where('invitee', '=', did)
    .where('status', '=', 'outstanding')
    .returning('uri')
    .execute()
  for (const invite of closed) await recordChange(tx, groupDid, CLOSED_CHANGE[status], invite.uri)
  return closed.length
}

/** Invites one group may have outstanding at once: a whole conference's guest list, with room. */
export const OUTSTANDING_INVITES_PER_GROUP = 10_000
/** Invites one person may have outstanding across every group on this host: two full groups' worth, not a hundred. */
export const OUTSTANDING_INVITES_PER_INVITER = 20_000

/**
 * Each invite is a row, a change-log entry and a line in its invitee's listMyInvites, and
 * anyone may make groups, so what one group keeps waiting is bounded (429 past it, until
 * some are redeemed, declined or revoked). Under the group's lock, so the count holds.
 */
async function requireRoomForInvite(tx: Tx, groupDid: string, inviter: string): Promise<void> {
  // Per inviter too: anyone may make a hundred groups, and each invite puts its message before
  // someone the inviter chose. Counted outside the group's lock, so concurrent invites from
  // one person to several groups may pass it by the number in flight (each group's own bound holds).
  const mine = await tx
    .selectFrom('invite')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('createdBy', '=', inviter)
    .where('status', '=', 'outstanding')
    .executeTakeFirstOrThrow()
  if (Number(mine.n) >= OUTSTANDING_INVITES_PER_INVITER) {
    throw capReached(
      OUTSTANDING_INVITES_PER_INVITER,
      Number(mine.n),
      `You have ${OUTSTANDING_INVITES_PER_INVITER.toLocaleString('en')} invites waiting across this host's groups, the most it keeps for one person; revoke some, or wait for people to answer, before inviting more`,
    )
  }
  const { n } = await tx
    .selectFrom('invite')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('groupDid', '=', groupDid)
    .where('status', '=', 'outstanding')
    .executeTakeFirstOrThrow()
  if (Number(n) >= OUTSTANDING_INVITES_PER_GROUP) {
    throw capReached(
      OUTSTANDING_INVITES_PER_GROUP,
      Number(n),
      `This group has ${OUTSTANDING_INVITES_PER_GROUP.toLocaleString('en')} invites waiting, the most this host keeps; revoke some, or wait for people to answer, before inviting more`,
    )
  }
}
