import type { AuditEntry } from '../../../shared/ipc/audit-views.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import { knownHandles } from '../people/list-handles.js'

const PAGE = 50

/** Each kind of change in words that read after a person's name ("@alice gave a role to @bob"). */
const WHAT: Record<string, string> = {
  'group.created': 'started the group',
  'group.configured': 'changed the group’s settings or roles',
  'joinRequest.created': 'asked to join',
  'joinRequest.cancelled': 'withdrew a request to join',
  'joinRequest.admitted': 'admitted a request to join',
  'joinRequest.denied': 'denied a request to join',
  'member.joined': 'added a member',
  'member.left': 'left the group',
  'member.ejected': 'removed a member',
  'member.accepted': 'accepted membership',
  'member.acceptanceWithdrawn': 'withdrew their acceptance',
  'member.roleGranted': 'gave a role to',
  'member.roleRevoked': 'took a role from',
  'ban.created': 'banned',
  'ban.lifted': 'lifted the ban on',
  'invite.created': 'invited',
  'invite.revoked': 'took back an invite',
  'invite.declined': 'turned down an invite',
  'invite.redeemed': 'used an invite',
  'space.created': 'created a space',
  'space.updated': 'changed a space',
  'space.deleted': 'deleted a space',
  'record.created': 'added a record',
  'record.updated': 'changed a record',
  'record.deleted': 'deleted a record',
  'record.takenDown': 'took down a record',
  'record.restored': 'restored a record',
  'subject.reported': 'reported',
  'subject.updated': 'changed a report’s status',
  'rsvp.promoted': 'gave a place at an event to',
  'rsvp.waitlisted': 'moved to an event’s waitlist',
  'event.capacitySet': 'set an event’s capacity',
}

/**
 * Who did what in a group, a page at a time from the host (newest first; only for
 * those who may configure the group, which the host checks). Read each time, not
 * cached: it is looked at rarely, and kept by the host. Handles already verified are
 * filled in; the rest show as whom the window can resolve.
 */
export async function auditLog(
  rt: AccountRuntime,
  groupDid: string,
  filter: { actor?: string; kind?: string; since?: string; until?: string; cursor?: string },
): Promise<{ items: AuditEntry[]; cursor: string | null }> {
  const host = await rt.hostOf(groupDid)
  const page = await host.query('example.groups.listAuditLog', { group: groupDid, limit: PAGE, ...filter })
  const people = page.entries.flatMap((e) => [e.actor, e.subject]).filter((d): d is string => !!d?.startsWith('did:'))
  const handles = await knownHandles(rt.cache, [...new Set(people)])
  return {
    items: page.entries.map((e) => ({
      seq: e.seq,
      kind: e.kind,
      what: WHAT[e.kind] ?? `made a change (${e.kind})`,
      subject: e.subject ?? null,
      subjectHandle: e.subject ? (handles.get(e.subject) ?? null) : null,
      actor: e.actor ?? null,
      actorHandle: e.actor ? (handles.get(e.actor) ?? null) : null,
      asGroup: e.asGroup ?? false,
      createdAt: e.createdAt,
    })),
    cursor: page.cursor ?? null,
  }
}
