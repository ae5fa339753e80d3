/**
 * Today (issue 25 point 1): what waits for the person across every group of every
 * signed-in account, read from the core's caches (main/core/today/). Like views.ts, the
 * schemas are also the allowlist of what crosses IPC; only a page of items does.
 */
import { z } from 'zod'

/** What kind of thing waits: someone asking to join, a report, a report the person took, an event about to start, an action that was not applied. */
export const TODAY_KINDS = ['joinRequest', 'report', 'assigned', 'event', 'failed'] as const
export type TodayKind = (typeof TODAY_KINDS)[number]

export const TodayItemView = z.object({
  /** Unique across the whole view: kind, group and the item's key. */
  id: z.string(),
  kind: z.enum(TODAY_KINDS),
  /** The account it is acted on as (the one with the most rights in the group, when two reach it). */
  accountDid: z.string(),
  groupDid: z.string(),
  groupName: z.string(),
  /** The item in its own list: a requester's DID, a report's key, an event's rkey, an outbox id. */
  key: z.string(),
  /** When it began waiting (a request or report made, an event's day begun, an action queued): oldest first. */
  since: z.string(),
  /** The person it is about, when it is about one (a requester, a reported account). */
  person: z.object({ did: z.string(), handle: z.string().nullable(), displayName: z.string().nullable() }).nullable(),
  /** A reported subject as the host names it (to resolve it in place). */
  subject: z.union([z.object({ did: z.string() }), z.object({ uri: z.string(), cid: z.string().optional() })]).nullable(),
  /** Short plain words: an event's name, a report's status and count, an action's label. */
  title: z.string(),
  /** More words where there are some: a request's message, the last report's reason, why an action failed. */
  detail: z.string().nullable(),
  /** An event's start. */
  startsAt: z.string().nullable(),
  /** A decision on it is queued and not yet confirmed: shown, not counted. */
  pending: z.boolean(),
  /** What the account may do to it here, in place. */
  actions: z.array(z.enum(['admit', 'deny', 'resolve', 'retry', 'dismiss'])),
})

export const TodayQuery = {
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(100),
  /** Only this group's items (by its DID, whichever account reaches it). */
  groupDid: z.string().max(2048).optional(),
  kind: z.enum(TODAY_KINDS).optional(),
  order: z.enum(['oldest', 'newest']).default('oldest'),
}

export const TodayPageView = z.object({
  items: z.array(TodayItemView),
  offset: z.number().int(),
  /** Items in the view (pending ones too), and how many match the filter. */
  total: z.number().int(),
  matched: z.number().int(),
  /** Moves whenever what Today holds changes; pages of different revisions do not mix. */
  revision: z.number().int(),
  /** Items waiting (not pending): the window's title and badge count. */
  waiting: z.number().int(),
  /** Waiting items per group and per kind, for the filters. */
  groups: z.array(z.object({ groupDid: z.string(), name: z.string(), waiting: z.number().int() })),
  kinds: z.array(z.object({ kind: z.enum(TODAY_KINDS), waiting: z.number().int() })),
})

export type TodayItem = z.output<typeof TodayItemView>
export type TodayPage = z.output<typeof TodayPageView>
export type TodayFilter = { groupDid?: string; kind?: TodayKind; order: 'oldest' | 'newest' }
