import { z } from 'zod'

/** One change in a group, with who made it (example.groups.listAuditLog), as the audit view shows it. */
export const AuditEntryView = z.object({
  seq: z.number().int(),
  kind: z.string(),
  /** The change in plain words, e.g. "gave a role to". */
  what: z.string(),
  /** Whom or what it changed: a DID, an address or an id (absent: the group itself). */
  subject: z.string().nullable(),
  /** The subject's handle, when it is a person whose handle was verified. */
  subjectHandle: z.string().nullable(),
  /** The person whose call made it (null: before the host recorded callers, or the host itself). */
  actor: z.string().nullable(),
  actorHandle: z.string().nullable(),
  /** They acted for the group (a group credential or group session). */
  asGroup: z.boolean(),
  createdAt: z.string(),
})
export type AuditEntry = z.output<typeof AuditEntryView>

export const AuditPageView = z.object({ items: z.array(AuditEntryView), cursor: z.string().nullable() })

/** What the audit view filters by: a person, a kind of change, a time range. */
export const AuditFilter = {
  actor: z.string().startsWith('did:').max(2048).optional(),
  kind: z.string().max(64).optional(),
  since: z.string().datetime({ offset: true }).optional(),
  until: z.string().datetime({ offset: true }).optional(),
  cursor: z.string().max(1024).optional(),
}

/** Someone's past in the group (example.groups.getMemberHistory), beside their request to join. */
export const MemberHistoryView = z.object({
  member: z.boolean(),
  formerMember: z.boolean(),
  leftAt: z.string().nullable(),
  how: z.enum(['left', 'ejected']).nullable(),
  banned: z.boolean(),
})
export type MemberHistory = z.output<typeof MemberHistoryView>
