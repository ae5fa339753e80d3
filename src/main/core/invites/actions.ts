import { markPending, putItem, readItem } from '../cache/items.js'
import type { ActionTable } from '../actions/action-spec.js'
import { viaHost } from '../actions/via-host.js'
import { knownHandles } from '../people/list-handles.js'
import { knownProfiles, rowProfile } from '../people/profile-cache.js'
import { allPages } from '../xrpc/host-pages.js'

/** Inviting someone by DID, and taking an invite back. */
export const INVITE_ACTIONS: ActionTable<'invite.create' | 'invite.revoke'> = {
  'invite.create': {
    undo: 'reread',
    label: (p, name) => `Invite ${name(p.invitee)}`,
    // Named at once when the cache already knows them (a former member, someone who asked before).
    applyToCache: async (tx, g, p, id) => {
      const handle = (await knownHandles(tx, [p.invitee])).get(p.invitee) ?? null
      const face = rowProfile((await knownProfiles(tx, [p.invitee])).get(p.invitee))
      await putItem(tx, g, 'invite', p.invitee, { uri: '', invitee: p.invitee, handle, ...face, createdAt: new Date().toISOString(), expiresAt: null, message: p.message ?? null, awaitingInvitee: false }, id)
    },
    send: viaHost('example.groups.createInvite', (group, p) => ({ group, invitee: p.invitee, ...(p.message ? { message: p.message } : {}) })),
    conflicts: { AlreadyMember: 'They joined the group before the invite was sent.' },
    scope: { ability: 'invite', methods: ['example.groups.createInvite'] },
    changes: ['invite.created'],
    list: 'invites',
    confirmed: 'keep',
    identifiers: (p, { answer }) => [p.invitee, ...(answer.uri ? [answer.uri] : [])],
    // The log names a new invite by its address, which an older host's answer does not carry.
    namedByLog: 'invite.created',
    settle: async (tx, g, p, change, id) => {
      if (change.kind !== 'invite.created' || !change.subject) return
      const invite = await readItem<Record<string, unknown>>(tx, g, 'invite', p.invitee)
      if (invite) await putItem(tx, g, 'invite', p.invitee, { ...invite, uri: change.subject, createdAt: change.createdAt, awaitingInvitee: change.subject.startsWith('pending:') }, id)
    },
    answered: (_p, answer, { now }) => (answer.uri ? [{ kind: 'invite.created', subject: answer.uri, createdAt: now }] : []),
  },
  'invite.revoke': {
    undo: 'unmark',
    label: (p, name) => `Revoke the invite for ${name(p.invitee)}`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'invite', p.invitee, id),
    send: viaHost('example.groups.revokeInvite', (group, p) => ({ group, invitee: p.invitee })),
    conflicts: { InviteNotFound: 'That invite was already used or revoked.' },
    // A revoke whose answer was lost (the host died mid-way through a bulk revoke) is
    // refused when sent again: no invite outstanding for them means the first one took.
    alreadyApplied: async (rt, g, p) => {
      const host = await rt.hostOf(g)
      const invites = await allPages((cursor) => host.query('example.groups.listInvites', { group: g, limit: 100, ...(cursor ? { cursor } : {}) }).then((r) => ({ items: r.invites, cursor: r.cursor })))
      return !invites.some((i) => i.invitee === p.invitee)
    },
    scope: { ability: 'invite', methods: ['example.groups.revokeInvite'] },
    changes: ['invite.revoked'],
    list: 'invites',
    confirmed: 'remove',
    identifiers: async (p, { cache, groupDid }) => {
      const invite = await readItem<{ uri?: string }>(cache, groupDid, 'invite', p.invitee)
      return [p.invitee, ...(invite?.uri ? [invite.uri] : [])]
    },
  },
}
