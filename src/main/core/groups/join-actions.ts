import type { Transaction } from 'kysely'
import { viaHost } from './via-host.js'
import type { CacheSchema } from '../cache/cache-db.js'
import { markPending, putItem } from '../cache/items.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import type { JoinRequest } from '@node/lexicon/types/example/groups/defs.js'
import { ERROR_MESSAGES } from '../../../shared/errors.js'

type Tx = Transaction<CacheSchema>

/**
 * The person's own join request to a group, cached as one item (kind `myJoinRequest`,
 * key `self`): the host's `getJoinRequest` answer after each refresh, or the request
 * still queued in the outbox, so "waiting for an answer" shows offline too.
 */
export const MY_REQUEST = 'self'

export interface MyJoinRequestView {
  createdAt: string
  message: string | null
}

export const myJoinRequestView = (r: Pick<JoinRequest, 'createdAt' | 'message'>): MyJoinRequestView => ({ createdAt: r.createdAt, message: r.message ?? null })

/** Is the person already a member (so a request was sent and admitted before a crash cut the attempt short)? */
async function isMember(rt: AccountRuntime, groupDid: string): Promise<boolean> {
  const host = await rt.hostOf(groupDid)
  const g = await host.query('example.groups.getGroup', { group: groupDid })
  return (g.viewer?.roles.length ?? 0) > 0
}

async function hasPendingRequest(rt: AccountRuntime, groupDid: string): Promise<boolean> {
  const host = await rt.hostOf(groupDid)
  const res = await host.query('example.groups.getJoinRequest', { group: groupDid })
  return !!res.request
}

/**
 * Asking to join and withdrawing the request: the person's own actions, queued in the
 * outbox like the organizer's. An outstanding invite is redeemed by the host on request
 * (spec section 3), so there is no invite code to send.
 */
export const JOIN_ACTIONS = {
  'membership.request': {
    send: viaHost('example.groups.requestJoin', (group: string, p: { message?: string }) => ({ group, ...(p.message ? { message: p.message } : {}) })),
    label: () => 'Ask to join',
    applyToCache: (tx: Tx, g: string, p: { message?: string }, id: number) =>
      putItem(tx, g, 'myJoinRequest', MY_REQUEST, { createdAt: new Date().toISOString(), message: p.message ?? null } satisfies MyJoinRequestView, id),
    conflicts: { AlreadyMember: 'You are already a member of this group.', InviteRequired: ERROR_MESSAGES.InviteRequired! },
    // Sent before a crash: the host then holds the request, or has already admitted.
    alreadyApplied: async (rt: AccountRuntime, g: string) => (await hasPendingRequest(rt, g)) || (await isMember(rt, g)),
  },
  'membership.cancelRequest': {
    send: viaHost('example.groups.cancelJoinRequest', (group: string) => ({ group })),
    label: () => 'Withdraw your request to join',
    applyToCache: (tx: Tx, g: string, _p: Record<string, never>, id: number) => markPending(tx, g, 'myJoinRequest', MY_REQUEST, id),
    conflicts: { RequestNotFound: 'Your request was already answered or withdrawn.' },
    alreadyApplied: async (rt: AccountRuntime, g: string) => !(await hasPendingRequest(rt, g)),
  },
}
