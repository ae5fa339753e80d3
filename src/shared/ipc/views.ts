/**
 * What the renderer is shown of groups: view schemas that are also the allowlist of
 * fields that may cross IPC (see contract.ts).
 */
import { z } from 'zod'

/** The answers an RSVP gives (community.lexicon.calendar.rsvp's tokens, without the `…rsvp#` before them). */
export const RSVP_STATUSES = ['going', 'interested', 'notgoing'] as const

/** How people attend an event (community.lexicon.calendar.event#mode, without the `…event#`). */
export const EVENT_MODES = ['inperson', 'virtual', 'hybrid'] as const
/** Where an event stands (community.lexicon.calendar.event#status, without the `…event#`). */
export const EVENT_STATUSES = ['planned', 'scheduled', 'rescheduled', 'cancelled', 'postponed'] as const

const optionalText = z.string().optional()
/**
 * An event's place, one of the published lexicon's union (community.lexicon.location.*
 * and the event's own #uri), by `kind` rather than `$type`. Another app's kinds Convene
 * does not know are not shown, and are kept when the event is edited (calendar-space.ts).
 */
export const EventLocationView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('address'), country: z.string(), name: optionalText, street: optionalText, locality: optionalText, region: optionalText, postalCode: optionalText }),
  z.object({ kind: z.literal('geo'), latitude: z.string(), longitude: z.string(), altitude: optionalText, name: optionalText }),
  z.object({ kind: z.literal('fsq'), placeId: z.string(), latitude: optionalText, longitude: optionalText, name: optionalText }),
  z.object({ kind: z.literal('hthree'), value: z.string(), name: optionalText }),
  z.object({ kind: z.literal('uri'), uri: z.string(), name: optionalText }),
])
export type EventLocation = z.infer<typeof EventLocationView>
/** A link that goes with an event (tickets, a page, the stream), with its name when given. */
export const EventLinkView = z.object({ uri: z.string(), name: optionalText })

/**
 * An event the account said it goes to or is interested in, not yet over (issue 36): what
 * the window's notifications compare from one summary to the next.
 */
export const MyComingEventView = z.object({
  rkey: z.string(),
  name: z.string(),
  startsAt: z.string(),
  status: z.enum(EVENT_STATUSES).nullable(),
  myRsvp: z.enum(['going', 'interested']),
  /** Going or waitlisted where the event has a capacity; null otherwise. */
  standing: z.enum(['going', 'waitlisted']).nullable(),
  /** This account is changing it itself (a queued action): not news to tell. */
  pending: z.boolean(),
})
export type MyComingEvent = z.output<typeof MyComingEventView>

export const GroupSummaryView = z.object({
  accountDid: z.string(),
  did: z.string(),
  handle: z.string().nullable(),
  displayName: z.string().nullable(),
  description: z.string().nullable(),
  joinPolicy: z.string(),
  hostUrl: z.string(),
  /** The signed-in account's roles and effective actions: they decide what is offered. */
  roles: z.array(z.string()),
  actions: z.array(z.string()),
  /** Roles this account may grant, revoke or eject (via `role.assign` / `eject`). */
  assignable: z.array(z.string()),
  allRoles: z.array(z.string()),
  /** Every role the group defines and what it may do and assign (its settings page edits them). */
  roleDefinitions: z.array(z.object({ name: z.string(), actions: z.array(z.string()), assignable: z.array(z.string()) })).default([]),
  /** Scopes the sign-in lacks for what the roles allow here (ask for them to sign in again). */
  missingScopes: z.array(z.string()),
  pendingRequests: z.number().int(),
  openSubjects: z.number().int(),
  /**
   * Moves whenever any of the group's cached lists changes, however it was written
   * (a sync, an action, handles filled in later: cache migration 002's triggers).
   */
  listsRevision: z.number().int(),
  syncedAt: z.string().nullable(),
  /** The account's own request to join, while it waits (non-members only). */
  joinRequest: z.object({ createdAt: z.string(), message: z.string().nullable(), state: z.enum(['queued', 'waiting', 'withdrawing']) }).nullable(),
  /** Whether the account accepted its membership (its acceptance record); null when not a member. */
  accepted: z.boolean().nullable(),
  /** The group's avatar as a data: URL (PNG, JPEG or WebP, checked by the core); null when it has none. */
  avatar: z.string().nullable().default(null),
  /** The events this account goes to or is interested in, nearest first (at most 30). */
  myEvents: z.array(MyComingEventView).max(30).default([]),
})

/** The handle of someone the host names only by DID: verified both ways, filled in after a sync; null until then or if none holds. */
const LookedUpHandle = z.string().nullable().default(null)

/**
 * A person's face, from their own profile (main/core/people/profile-cache.ts), read after
 * a sync: their display name and a small avatar as a data: URL; null until read or if none.
 */
export const Face = {
  displayName: z.string().nullable().default(null),
  avatar: z.string().nullable().default(null),
}

export const JoinRequestView = z.object({
  id: z.string(),
  did: z.string(),
  handle: LookedUpHandle,
  ...Face,
  /** Their bio, from their profile. */
  description: z.string().nullable().default(null),
  /** When their DID was registered (did:plc only), for the account's age. */
  accountCreatedAt: z.string().nullable().default(null),
  createdAt: z.string(),
  message: z.string().nullable(),
  /** Set while a decision is queued and not yet confirmed by the host. */
  pending: z.boolean(),
})

export const MemberView = z.object({
  did: z.string(),
  handle: z.string().nullable(),
  ...Face,
  roles: z.array(z.string()),
  joinedAt: z.string(),
  accepted: z.boolean(),
  pending: z.boolean(),
})

/**
 * One page of a long cached list, in the order organizers read it (see
 * main/core/reading/list-pages.ts): only the rows in view cross to the renderer.
 */
const pageOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    items: z.array(item),
    offset: z.number().int(),
    /** Items in the list, and how many match the search. */
    total: z.number().int(),
    matched: z.number().int(),
    /** Moves whenever the cached list changes; pages of different revisions do not mix. */
    revision: z.number().int(),
  })

export const MemberPageView = pageOf(MemberView)
export const JoinRequestPageView = pageOf(JoinRequestView).extend({
  /** Matching requests not yet decided here: what "select all" would select. */
  open: z.number().int(),
})
/** The open (not yet decided) requests matching a search, for "select all matching". */
export const OpenJoinRequestsView = z.object({ dids: z.array(z.string()), revision: z.number().int() })

/** Where one group's sync stands (see main/core/sync/sync-progress.ts). */
export const SyncGroupStateView = z.object({
  accountDid: z.string(),
  groupDid: z.string(),
  /** waiting → checking (the change log) → reading (lists, page by page) → saving → done; or unchanged, or failed. */
  phase: z.enum(['waiting', 'checking', 'reading', 'saving', 'done', 'unchanged', 'failed']),
  /** Items read from the host so far in this sync. */
  itemsRead: z.number().int(),
  /** Why it failed, in plain words. */
  error: z.string().nullable(),
  finishedAt: z.string().nullable(),
})

/**
 * One account's live connection to one group host (see main/core/live/): while it is live,
 * changes others make show within a second and no periodic check is sent.
 */
export const LiveConnectionView = z.object({
  accountDid: z.string(),
  hostUrl: z.string(),
  /** connecting; live; down (lost: trying again at `retryAt`, checked every 30 s meanwhile); polling (no live updates from this host). */
  state: z.enum(['connecting', 'live', 'down', 'polling']),
  since: z.string(),
  /** Why it is down or polling, in plain words. */
  detail: z.string().nullable(),
  retryAt: z.string().nullable(),
})

export const SyncStatusView = z.object({
  running: z.boolean(),
  groups: z.array(SyncGroupStateView),
  /** The live connections to group hosts (none when the app has no live updates: tests, benches). */
  live: z.array(LiveConnectionView).default([]),
})

export const InviteView = z.object({
  uri: z.string(),
  invitee: z.string(),
  handle: LookedUpHandle,
  ...Face,
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  message: z.string().nullable(),
  /** `pending:<did>` invites: the invitee has no invites space yet; it still redeems. */
  awaitingInvitee: z.boolean(),
  pending: z.boolean(),
})

export const InvitePageView = pageOf(InviteView)

/** Someone named by handle or DID, resolved (see main/core/people/resolve-person.ts). */
export const PersonView = z.object({ did: z.string(), handle: z.string().nullable() })

/**
 * Who has taken a report ("I'm on it", Ozone's moderator assignment) and until when it
 * lapses (if not resolved or released first); null when nobody has it.
 */
export const Assignment = z.object({ did: z.string(), handle: z.string().nullable(), endAt: z.string() }).nullable().default(null)

export const SubjectView = z.object({
  key: z.string(),
  subject: z.union([z.object({ did: z.string() }), z.object({ uri: z.string(), cid: z.string().optional() })]),
  /** A reported account's handle (a record's subject has none). */
  handle: LookedUpHandle,
  /** A reported account's face. */
  ...Face,
  /** A reported record as what it is, when the cache knows it (a calendar event: its name and start). */
  record: z.object({ kind: z.enum(['event']), name: z.string(), startsAt: z.string().nullable() }).nullable().default(null),
  /** A reported record in the group's spaces in a line, as the host serves it to this moderator: a post's text (trimmed), or that it was deleted. */
  recordPreview: z.object({ text: z.string().optional(), gone: z.boolean().optional() }).nullable().default(null),
  status: z.string(),
  reportCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  pending: z.boolean(),
  /** The reason types reported (atproto's `com.atproto.moderation.defs#reason…`, or older words). */
  reasonTypes: z.array(z.string()).default([]),
  /** The newest report's reason and words (its reporter stays in the detail pane). */
  lastReport: z.object({ reasonType: z.string(), reason: z.string().nullable().default(null), createdAt: z.string() }).nullable().default(null),
  /** A takedown is in force: the record is not served to members, or the account is banned. */
  takenDown: z.boolean().default(false),
  assignedTo: Assignment,
  /** Pinned to the top of the team's queue (the `pin` event), by whom and when; null when not. */
  pinned: z.object({ did: z.string(), handle: z.string().nullable(), at: z.string() }).nullable().default(null),
})

export const SubjectPageView = pageOf(SubjectView).extend({
  /** In the whole queue (whatever the filter): reports open, and escalated. */
  open: z.number().int(),
  escalated: z.number().int(),
})

/** Resolved reports, read from the host a page at a time (the cache keeps only the queue). */
export const ResolvedSubjectPageView = z.object({ items: z.array(SubjectView), cursor: z.string().nullable() })

/** A going RSVP's place, as the host decided it (null: not going, or a host that does not decide places). */
const PlaceFields = {
  standing: z.enum(['going', 'waitlisted']).nullable().default(null),
  /** 1-based place on the waitlist. */
  waitlistPosition: z.number().int().nullable().default(null),
}

export const EventView = z.object({
  rkey: z.string(),
  /** Empty until the host has stored it. */
  uri: z.string(),
  name: z.string(),
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  description: z.string().nullable(),
  /** Free text written by Convene before the published lexicon (no `locations` then): shown as a place's name. */
  location: z.string().nullable(),
  mode: z.enum(EVENT_MODES).nullable().default(null),
  status: z.enum(EVENT_STATUSES).nullable().default(null),
  locations: z.array(EventLocationView).default([]),
  uris: z.array(EventLinkView).default([]),
  /** The weekly or monthly series it is an occurrence of (shared/recurrence.ts), or null. */
  series: z.object({ id: z.string(), rrule: z.string(), tzid: z.string(), dtstart: z.string(), recurrenceId: z.string() }).nullable().default(null),
  createdAt: z.string(),
  /** This account's own answer, from its own PDS. */
  myRsvp: z.string().nullable(),
  /** Every member's answer as the host serves it (the account's own may lag behind `myRsvp`). */
  rsvps: z.array(z.object({ did: z.string(), handle: z.string().nullable(), status: z.enum(RSVP_STATUSES), ...PlaceFields })).default([]),
  pending: z.boolean(),
  /** Taken down by a moderator: members are not served it (moderators are, and see this). */
  takenDown: z.boolean().default(false),
  /**
   * Its image (issue 27): which one (a blob CID, or a provisional key while a chosen one
   * waits to be sent) and its description; `held`: the cache has its bytes, which the
   * window asks for by CID (`groups.eventImage`), so a list re-read never carries them.
   */
  image: z.object({ cid: z.string().max(200), alt: z.string(), held: z.boolean().default(false) }).nullable().default(null),
  /** Who came: the check-ins at the door (issue 27), from the cache (queued ones too). */
  came: z.array(z.object({ did: z.string(), handle: z.string().nullable(), displayName: z.string().nullable() })).default([]),
  /** The capacity the host keeps for it (issue 27 point 2); null: no limit, or not read. */
  capacity: z.number().int().nullable().default(null),
})

export const CredentialScopeView = z.object({ role: z.string(), scopes: z.array(z.string()) })

export const SpaceView = z.object({
  uri: z.string(),
  type: z.string(),
  skey: z.string(),
  name: z.string(),
  readableBy: z.array(z.string()),
  credentialScopes: z.array(CredentialScopeView),
  /** `meta` and `members`: built in, never changed or deleted. */
  wellKnown: z.boolean(),
  pending: z.boolean(),
})

export const OutboxItemView = z.object({
  id: z.number().int(),
  /** The account that queued it (one organizer may run the same group from two accounts). */
  accountDid: z.string(),
  groupDid: z.string(),
  /** The action's kind, as in `groups.act` (e.g. `member.grantRole`). */
  kind: z.string(),
  label: z.string(),
  state: z.enum(['queued', 'sending', 'done', 'conflict', 'failed']),
  attempts: z.number().int(),
  /** Plain language: why it is waiting, or what the conflict was. */
  detail: z.string().nullable(),
  /** Who or what the action is about (a member's or invitee's DID, a report's key), to show its outcome beside them. */
  target: z.string().nullable(),
  createdAt: z.string(),
  /** While it is held back so it can be undone: when it will be sent (ISO). Null otherwise. */
  heldUntil: z.string().nullable(),
})

export type GroupSummary = z.output<typeof GroupSummaryView>
export type JoinRequestItem = z.output<typeof JoinRequestView>
export type MemberItem = z.output<typeof MemberView>
export type MemberPage = z.output<typeof MemberPageView>
export type InvitePage = z.output<typeof InvitePageView>
export type JoinRequestPage = z.output<typeof JoinRequestPageView>
export type OpenJoinRequests = z.output<typeof OpenJoinRequestsView>
export type SubjectPage = z.output<typeof SubjectPageView>
export type SyncGroupState = z.output<typeof SyncGroupStateView>
export type SyncStatus = z.output<typeof SyncStatusView>
export type LiveConnectionState = z.output<typeof LiveConnectionView>
export type InviteItem = z.output<typeof InviteView>
export type SubjectItem = z.output<typeof SubjectView>
export { SubjectDetailView, type SubjectDetail } from './moderation-views.js'
export type OutboxItem = z.output<typeof OutboxItemView>
export type EventItem = z.output<typeof EventView>
export type SpaceItem = z.output<typeof SpaceView>
