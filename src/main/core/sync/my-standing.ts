import type { AccountRuntime } from '../session/account-runtime.js'
import type { HostClient } from '../xrpc/host-client.js'
import type { Member } from '@node/lexicon/types/example/groups/defs.js'
import { MY_REQUEST, myJoinRequestView, type MyJoinRequestView } from '../membership/my-join-request.js'

/**
 * The person's own standing in a group, beside what their roles let them do: a request
 * to join still waiting (theirs, from `getJoinRequest`), and, once a member, whether
 * they have accepted membership (the acceptance record on their own PDS).
 */
export interface MyStanding {
  /** `queued`: not sent yet (offline); `waiting`: the host holds it; `withdrawing`: a withdrawal is queued. */
  joinRequest: (MyJoinRequestView & { state: 'queued' | 'waiting' | 'withdrawing' }) | null
  /** Null when not a member. */
  accepted: boolean | null
}

/** The caller's own waiting request, for a non-member (a member has none to show). */
export async function fetchMyRequest(host: HostClient, groupDid: string, isMember: boolean): Promise<MyJoinRequestView[]> {
  if (isMember) return []
  const res = await host.query('example.groups.getJoinRequest', { group: groupDid })
  return res.request ? [myJoinRequestView(res.request)] : []
}

/** From the cache (and the outbox: an acceptance queued counts as given). */
export async function myStanding(rt: AccountRuntime, groupDid: string, isMember: boolean): Promise<MyStanding> {
  if (!isMember) return { joinRequest: await myRequest(rt, groupDid), accepted: null }
  const me = await rt.cache.selectFrom('item').select('view').where('groupDid', '=', groupDid).where('kind', '=', 'member').where('key', '=', rt.did).executeTakeFirst()
  const accepted = me ? (JSON.parse(me.view) as Member).accepted : false
  return { joinRequest: null, accepted: accepted || (await queued(rt, groupDid, 'membership.accept')) }
}

async function myRequest(rt: AccountRuntime, groupDid: string): Promise<MyStanding['joinRequest']> {
  const request = await rt.cache
    .selectFrom('item')
    .select(['view', 'pendingAction'])
    .where('groupDid', '=', groupDid)
    .where('kind', '=', 'myJoinRequest')
    .where('key', '=', MY_REQUEST)
    .executeTakeFirst()
  return request ? { ...(JSON.parse(request.view) as MyJoinRequestView), state: await requestState(rt, groupDid, request.pendingAction) } : null
}

async function requestState(rt: AccountRuntime, groupDid: string, pendingAction: number | null): Promise<'queued' | 'waiting' | 'withdrawing'> {
  if (await queued(rt, groupDid, 'membership.cancelRequest')) return 'withdrawing'
  return pendingAction === null ? 'waiting' : 'queued'
}

async function queued(rt: AccountRuntime, groupDid: string, kind: string): Promise<boolean> {
  const row = await rt.cache
    .selectFrom('outbox')
    .select('id')
    .where('groupDid', '=', groupDid)
    .where('kind', '=', kind)
    .where('state', 'in', ['queued', 'sending'])
    .executeTakeFirst()
  return !!row
}
