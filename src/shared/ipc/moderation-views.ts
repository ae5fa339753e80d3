/**
 * What the moderator's detail pane is shown of one subject (issue 17): the reported thing
 * as people saw it, every report and the history. Also the allowlist of fields that cross.
 */
import { z } from 'zod'

const Report = z.object({
  reasonType: z.string(),
  reason: z.string().nullable(),
  /** Who reported; null when the reader is the reported person (the host leaves it out). */
  reportedBy: z.string().nullable(),
  reportedByHandle: z.string().nullable(),
  /** The reporter's display name, from their profile as last read. */
  reportedByName: z.string().nullable().default(null),
  createdAt: z.string(),
})

const HistoryEntry = z.object({
  event: z.string(),
  note: z.string().nullable(),
  status: z.string().nullable(),
  reasonType: z.string().nullable(),
  reason: z.string().nullable(),
  ban: z.boolean(),
  createdBy: z.string().nullable(),
  createdByHandle: z.string().nullable(),
  /** Display names from profiles as last read (people/profile-cache.ts). */
  createdByName: z.string().nullable().default(null),
  createdAt: z.string(),
  /** assign: who took it and until when; unassign: whose hold was released. */
  assignedTo: z.string().nullable().default(null),
  assignedToHandle: z.string().nullable().default(null),
  assignedToName: z.string().nullable().default(null),
  endAt: z.string().nullable().default(null),
})

/** The reported thing, as members saw it. */
const Shown = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('event'), name: z.string(), startsAt: z.string().nullable(), endsAt: z.string().nullable(), location: z.string().nullable(), description: z.string().nullable() }),
  z.object({ kind: z.literal('rsvp'), status: z.string(), event: z.string().nullable(), by: z.string() }),
  z.object({
    kind: z.literal('account'),
    did: z.string(),
    handle: z.string().nullable(),
    displayName: z.string().nullable(),
    avatar: z.string().nullable().default(null),
    /** Roles held now; empty when no longer a member. */
    roles: z.array(z.string()),
    member: z.boolean(),
  }),
  z.object({ kind: z.literal('fields'), fields: z.array(z.object({ label: z.string(), value: z.string() })) }),
  /** A record with a `text` field (a post of any collection): its words, and the rest as fields. */
  z.object({ kind: z.literal('post'), text: z.string(), createdAt: z.string().nullable(), author: z.string(), fields: z.array(z.object({ label: z.string(), value: z.string() })) }),
  /** The host no longer has it (deleted since it was reported). */
  z.object({ kind: z.literal('unavailable'), uri: z.string() }),
  /** It is in a space the moderator's roles may not read: the host does not serve it to them. */
  z.object({ kind: z.literal('withheld'), uri: z.string() }),
])

export const SubjectDetailView = z.object({
  key: z.string(),
  subject: z.union([z.object({ did: z.string() }), z.object({ uri: z.string(), cid: z.string().optional() })]),
  status: z.string(),
  reportCount: z.number().int(),
  takenDown: z.boolean(),
  shown: Shown,
  reports: z.array(Report),
  history: z.array(HistoryEntry),
  /** The account's other subjects in this group's queue (earlier reports about their records, say). */
  earlierSubjects: z.array(z.object({ key: z.string(), status: z.string(), reportCount: z.number().int() })),
  /** More (older) reports or history than the pane reads stay on the host. */
  olderOnHost: z.boolean(),
  /** Who has taken it, while the hold lasts. */
  assignedTo: z.object({ did: z.string(), handle: z.string().nullable(), endAt: z.string() }).nullable().default(null),
  /** Pinned to the top of the team's queue, by whom and when; null when not. */
  pinned: z.object({ did: z.string(), handle: z.string().nullable(), at: z.string() }).nullable().default(null),
})

export type SubjectDetail = z.output<typeof SubjectDetailView>
