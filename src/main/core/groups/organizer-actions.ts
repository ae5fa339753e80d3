import type { Transaction } from 'kysely'
import type { CacheSchema } from '../cache/cache-db.js'
import { markPending, putItem, readItem } from '../cache/items.js'
import type { ActionHandler } from '../outbox/outbox.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import type { HostMember } from './host-views.js'
import { ERROR_MESSAGES } from '../../../shared/errors.js'

type Tx = Transaction<CacheSchema>

/** Every organizer action the app can queue, by kind. */
export interface ActionPayloads {
  'joinRequest.decide': { did: string; decision: 'admit' | 'deny'; roles?: string[] }
  'invite.create': { invitee: string; message?: string }
  'invite.revoke': { invitee: string }
  'member.grantRole': { did: string; role: string }
  'member.revokeRole': { did: string; role: string }
  'member.eject': { did: string; note?: string }
  'subject.update': { key: string; subject: { did: string } | { uri: string; cid?: string }; status: string; note?: string }
}
export type ActionKind = keyof ActionPayloads

interface ActionSpec<K extends ActionKind> {
  method: string
  body(groupDid: string, p: ActionPayloads[K]): Record<string, unknown>
  label(p: ActionPayloads[K]): string
  /** The cached effect, applied when queued and re-applied over each refresh until sent. */
  applyToCache(tx: Tx, groupDid: string, p: ActionPayloads[K], outboxId: number): Promise<void>
  conflicts: Partial<Record<string, string>>
  /** After an interrupted attempt: is the intended end state already there? */
  alreadyApplied?(rt: AccountRuntime, groupDid: string, p: ActionPayloads[K]): Promise<boolean>
}

async function memberOnHost(rt: AccountRuntime, groupDid: string, did: string): Promise<HostMember | null> {
  const host = await rt.hostOf(groupDid)
  const { members } = await host.query<{ members: HostMember[] }>('example.groups.listMembers', { group: groupDid, q: did, limit: 100 })
  return members.find((m) => m.did === did) ?? null
}

const short = (did: string) => did.replace(/^did:plc:/, '').slice(0, 8)

export const ACTIONS: { [K in ActionKind]: ActionSpec<K> } = {
  'joinRequest.decide': {
    method: 'example.groups.admitMember',
    body: (group, p) => ({ group, did: p.did, decision: p.decision, ...(p.roles ? { roles: p.roles } : {}) }),
    label: (p) => `${p.decision === 'admit' ? 'Admit' : 'Deny'} ${short(p.did)}`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'joinRequest', p.did, id),
    conflicts: { RequestNotFound: 'Someone else already decided this request, or it was withdrawn.', AlreadyMember: ERROR_MESSAGES.AlreadyMember! },
    alreadyApplied: async (rt, g, p) => (p.decision === 'admit' ? !!(await memberOnHost(rt, g, p.did)) : false),
  },
  'invite.create': {
    method: 'example.groups.createInvite',
    body: (group, p) => ({ group, invitee: p.invitee, ...(p.message ? { message: p.message } : {}) }),
    label: (p) => `Invite ${short(p.invitee)}`,
    applyToCache: (tx, g, p, id) =>
      putItem(tx, g, 'invite', p.invitee, { uri: '', invitee: p.invitee, createdAt: new Date().toISOString(), expiresAt: null, message: p.message ?? null, awaitingInvitee: false }, id),
    conflicts: { AlreadyMember: 'They joined the group before the invite was sent.' },
  },
  'invite.revoke': {
    method: 'example.groups.revokeInvite',
    body: (group, p) => ({ group, invitee: p.invitee }),
    label: (p) => `Revoke the invite for ${short(p.invitee)}`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'invite', p.invitee, id),
    conflicts: { InviteNotFound: 'That invite was already used or revoked.' },
  },
  'member.grantRole': {
    method: 'example.groups.grantRole',
    body: (group, p) => ({ group, did: p.did, role: p.role }),
    label: (p) => `Give ${short(p.did)} the ${p.role} role`,
    applyToCache: async (tx, g, p, id) => {
      const m = await readItem<{ roles: string[] }>(tx, g, 'member', p.did)
      if (m) await putItem(tx, g, 'member', p.did, { ...m, roles: [...new Set([...m.roles, p.role])].sort() }, id)
    },
    conflicts: { NotAMember: 'They are no longer a member.', NotAssignable: ERROR_MESSAGES.NotAssignable! },
  },
  'member.revokeRole': {
    method: 'example.groups.revokeRole',
    body: (group, p) => ({ group, did: p.did, role: p.role }),
    label: (p) => `Take the ${p.role} role from ${short(p.did)}`,
    applyToCache: async (tx, g, p, id) => {
      const m = await readItem<{ roles: string[] }>(tx, g, 'member', p.did)
      if (m) await putItem(tx, g, 'member', p.did, { ...m, roles: m.roles.filter((r) => r !== p.role) }, id)
    },
    conflicts: { NotAMember: 'They are no longer a member.', NotAssignable: ERROR_MESSAGES.NotAssignable!, LastConfigurer: ERROR_MESSAGES.LastConfigurer! },
  },
  'member.eject': {
    method: 'example.groups.ejectMember',
    body: (group, p) => ({ group, did: p.did, ...(p.note ? { note: p.note } : {}) }),
    label: (p) => `Remove ${short(p.did)} from the group`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'member', p.did, id),
    conflicts: { NotAMember: 'They had already left or been removed.', NotAssignable: ERROR_MESSAGES.NotAssignable!, LastConfigurer: ERROR_MESSAGES.LastConfigurer! },
    alreadyApplied: async (rt, g, p) => !(await memberOnHost(rt, g, p.did)),
  },
  'subject.update': {
    method: 'example.groups.updateSubject',
    body: (group, p) => ({ group, subject: p.subject, status: p.status, ...(p.note ? { note: p.note } : {}) }),
    label: (p) => `Mark a report ${p.status}`,
    applyToCache: async (tx, g, p, id) => {
      const s = await readItem<{ status: string }>(tx, g, 'subject', p.key)
      if (s) await putItem(tx, g, 'subject', p.key, { ...s, status: p.status }, id)
    },
    conflicts: { SubjectNotFound: ERROR_MESSAGES.SubjectNotFound! },
  },
}

/** The outbox's handlers for one account, built from the table above. */
export function actionHandlers(rt: AccountRuntime): Record<string, ActionHandler> {
  return Object.fromEntries(
    Object.entries(ACTIONS).map(([kind, spec]) => {
      const s = spec as ActionSpec<ActionKind>
      const handler: ActionHandler = {
        send: async (groupDid, payload) => {
          const host = await rt.hostOf(groupDid)
          await host.procedure(s.method, s.body(groupDid, payload as never))
        },
        conflicts: s.conflicts as Record<string, string>,
        alreadyApplied: s.alreadyApplied ? (groupDid, payload) => s.alreadyApplied!(rt, groupDid, payload as never) : undefined,
      }
      return [kind, handler]
    }),
  )
}
