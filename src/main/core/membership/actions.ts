import { ERROR_MESSAGES } from '@shared/errors.js'
import { markPending, putItem, readItem } from '../cache/items.js'
import { ACCEPTANCE_COLLECTION, membersSpace } from '../calendar/calendar-space.js'
import { memberWrite } from '../calendar/member-writes.js'
import type { Member } from '@node/lexicon/types/example/groups/defs.js'
import type { ActionTable, Tx, ActionDeps } from '../actions/action-spec.js'
import { viaHost } from '../actions/via-host.js'
import { MY_REQUEST, type MyJoinRequestView } from './my-join-request.js'

/** The person left: the kept group view holds no role for them, and the next pass reads the group whole. */
async function forgetMyMembership(tx: Tx, groupDid: string): Promise<void> {
  const row = await tx.selectFrom('group_row').select('view').where('did', '=', groupDid).executeTakeFirst()
  if (!row) return
  const view = JSON.parse(row.view) as { viewer?: { roles: string[]; actions: string[] } }
  if (view.viewer) view.viewer = { ...view.viewer, roles: [], actions: [] }
  await tx.updateTable('group_row').set({ view: JSON.stringify(view), changeCursor: null }).where('did', '=', groupDid).execute()
}

async function memberOnHost(rt: ActionDeps, groupDid: string, did: string): Promise<Member | null> {
  const host = await rt.hostOf(groupDid)
  const { members } = await host.query('example.groups.listMembers', { group: groupDid, q: did, limit: 100 })
  return members.find((m) => m.did === did) ?? null
}

/** Is the person already a member (so a request was sent and admitted before a crash cut the attempt short)? */
async function isMember(rt: ActionDeps, groupDid: string): Promise<boolean> {
  const host = await rt.hostOf(groupDid)
  const g = await host.query('example.groups.getGroup', { group: groupDid })
  return (g.viewer?.roles.length ?? 0) > 0
}

async function hasPendingRequest(rt: ActionDeps, groupDid: string): Promise<boolean> {
  const host = await rt.hostOf(groupDid)
  const res = await host.query('example.groups.getJoinRequest', { group: groupDid })
  return !!res.request
}

/**
 * Who belongs to a group: an organizer deciding a request or removing a member, and the
 * person's own steps (asking to join, withdrawing, accepting, leaving), all queued in the
 * outbox alike. An outstanding invite is redeemed by the host on request (spec section
 * 3), so there is no invite code to send.
 */
export const MEMBERSHIP_ACTIONS: ActionTable<'joinRequest.decide' | 'member.eject' | 'membership.request' | 'membership.cancelRequest' | 'membership.accept' | 'membership.leave'> = {
  'joinRequest.decide': {
    undo: 'unmark',
    label: (p, name) => `${p.decision === 'admit' ? 'Admit' : 'Deny'} ${name(p.did)}`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'joinRequest', p.did, id),
    send: viaHost('example.groups.admitMember', (group, p) => ({ group, did: p.did, decision: p.decision, ...(p.roles ? { roles: p.roles } : {}) })),
    conflicts: { RequestNotFound: 'Someone else already decided this request, or it was withdrawn.', AlreadyMember: ERROR_MESSAGES.AlreadyMember! },
    alreadyApplied: async (rt, g, p) => (p.decision === 'admit' ? !!(await memberOnHost(rt, g, p.did)) : false),
    scope: { ability: 'admit', methods: ['example.groups.admitMember'] },
    changes: ['joinRequest.admitted', 'joinRequest.denied', 'member.joined', 'invite.redeemed'],
    list: 'requests',
    confirmed: 'remove',
    identifiers: async (p, { cache, groupDid }) => {
      const request = await readItem<{ id?: string }>(cache, groupDid, 'joinRequest', p.did)
      // Admitting redeems the person's outstanding invite.
      const invite = await readItem<{ uri?: string }>(cache, groupDid, 'invite', p.did)
      return [p.did, ...(request?.id ? [request.id] : []), ...(invite?.uri ? [invite.uri] : [])]
    },
    settle: async (tx, g, p, change) => {
      if (change.kind !== 'member.joined' || p.decision !== 'admit') return
      const request = await readItem<{ handle?: string | null }>(tx, g, 'joinRequest', p.did)
      const roles = p.roles?.length ? p.roles : ['member']
      await putItem(tx, g, 'member', p.did, { did: p.did, handle: request?.handle ?? null, roles: [...roles].sort(), joinedAt: change.createdAt, accepted: false }, null)
    },
    // The answer does not carry the joining time: the moment it came stands in until the log's entry.
    answered: (p, _answer, { now }) => (p.decision === 'admit' ? [{ kind: 'member.joined', subject: p.did, createdAt: now }] : []),
  },
  'member.eject': {
    undo: 'unmark',
    label: (p, name) => `Remove ${name(p.did)} from the group`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'member', p.did, id),
    send: viaHost('example.groups.ejectMember', (group, p) => ({ group, did: p.did, ...(p.note ? { note: p.note } : {}) })),
    conflicts: { NotAMember: 'They had already left or been removed.', NotAssignable: ERROR_MESSAGES.NotAssignable!, LastConfigurer: ERROR_MESSAGES.LastConfigurer! },
    alreadyApplied: async (rt, g, p) => !(await memberOnHost(rt, g, p.did)),
    scope: { ability: 'eject', methods: ['example.groups.ejectMember'] },
    changes: ['member.ejected', 'ban.created'],
    // The host also denies their open request and revokes their invites: those lists are read back.
    readBack: () => true,
    list: 'members',
    confirmed: 'remove',
    identifiers: (p) => [p.did],
  },
  'membership.request': {
    undo: 'remove',
    label: () => 'Ask to join',
    applyToCache: (tx, g, p, id) => putItem(tx, g, 'myJoinRequest', MY_REQUEST, { createdAt: new Date().toISOString(), message: p.message ?? null } satisfies MyJoinRequestView, id),
    send: viaHost('example.groups.requestJoin', (group, p) => ({ group, ...(p.message ? { message: p.message } : {}) })),
    conflicts: { AlreadyMember: 'You are already a member of this group.', InviteRequired: ERROR_MESSAGES.InviteRequired! },
    // Sent before a crash: the host then holds the request, or has already admitted.
    alreadyApplied: async (rt, g) => (await hasPendingRequest(rt, g)) || (await isMember(rt, g)),
    // Someone asking to join may not read the change log: their group is read whole each pass.
    changes: [],
    list: null,
    confirmed: 'keep',
    identifiers: () => [],
  },
  'membership.cancelRequest': {
    undo: 'unmark',
    label: () => 'Withdraw your request to join',
    applyToCache: (tx, g, _p, id) => markPending(tx, g, 'myJoinRequest', MY_REQUEST, id),
    send: viaHost('example.groups.cancelJoinRequest', (group) => ({ group })),
    conflicts: { RequestNotFound: 'Your request was already answered or withdrawn.' },
    alreadyApplied: async (rt, g) => !(await hasPendingRequest(rt, g)),
    changes: [],
    list: null,
    confirmed: 'keep',
    identifiers: () => [],
  },
  'membership.accept': {
    undo: 'none',
    label: () => 'Accept your membership',
    applyToCache: async () => {},
    send: async (rt, g) =>
      memberWrite(await rt.session(), 'com.atproto.space.putRecord', {
        space: membersSpace(g),
        collection: ACCEPTANCE_COLLECTION,
        rkey: 'self',
        record: { $type: ACCEPTANCE_COLLECTION, createdAt: new Date().toISOString() },
      }),
    conflicts: {},
    changes: ['member.accepted', 'record.created', 'record.updated'],
    list: null,
    confirmed: 'keep',
    identifiers: (_p, { me }) => [me],
    // The host counts the acceptance once the person's PDS tells it, which may be before
    // the app reads the log: then the change is our own and nothing is read again, so
    // the person's cached membership takes it from the change (else "Accept" came back).
    settle: async (tx, g, _p, change) => {
      if (change.kind !== 'member.accepted' || !change.subject) return
      const me = await readItem<Member>(tx, g, 'member', change.subject)
      if (me && !me.accepted) await putItem(tx, g, 'member', change.subject, { ...me, accepted: true }, null)
    },
  },
  'membership.leave': {
    undo: 'none',
    label: () => 'Leave the group',
    applyToCache: async () => {},
    // The member's acceptance goes first (spec section 3), then the host is told.
    send: async (rt, g) => {
      await memberWrite(await rt.session(), 'com.atproto.space.deleteRecord', { space: membersSpace(g), collection: ACCEPTANCE_COLLECTION, rkey: 'self' })
      return (await rt.hostOf(g)).procedure('example.groups.leaveGroup', { group: g })
    },
    conflicts: { NotAMember: 'You had already left this group.', LastConfigurer: ERROR_MESSAGES.LastConfigurer! },
    changes: ['member.left', 'member.acceptanceWithdrawn', 'record.deleted'],
    list: null,
    confirmed: 'keep',
    identifiers: (_p, { me }) => [me],
    // Settled from the host's answer, nothing is read again, and a non-member may not read
    // the log: the person's standing changes here (no role, no acceptance), and the group
    // is read whole at the next pass, as a non-member's always is.
    settle: async (tx, g, _p, change) => {
      if (change.kind === 'member.left') await forgetMyMembership(tx, g)
    },
    // The answer does not name the leaver: it is the account itself (the log says the same).
    answered: (_p, _answer, { now }) => [{ kind: 'member.left', createdAt: now }],
  },
}
