/**
 * The one IPC contract between the renderer and the main process. The Electron
 * `ipcMain` wiring, the preload's `contextBridge` API and the loopback shell's HTTP
 * routes are all derived from this object, so a channel cannot exist in one and not
 * the others.
 *
 * Each channel's `output` schema is also an allowlist: the main process parses every
 * result through it before it crosses, and zod drops keys the schema does not name,
 * so a token or key that slips into a result object never reaches the renderer.
 */
import { z } from 'zod'
import { EventView, SpaceView, GroupSummaryView, InvitePageView, PersonView, JoinRequestPageView, OpenJoinRequestsView, MemberPageView, SubjectPageView, ResolvedSubjectPageView, SyncStatusView, OutboxItemView, SubjectDetailView, RSVP_STATUSES, EVENT_MODES, EVENT_STATUSES } from './views.js'
import { GROUP_ABILITY_KEYS } from '../group-scope.js'
import { AuditFilter, AuditPageView, MemberHistoryView } from './audit-views.js'
import { InviteListResultView, MyInvitesView } from './my-invite-views.js'
import { PublicPostView } from './post-views.js'
import { MODERATION_EVENTS } from '../moderation-events.js'
import { TodayPageView, TodayQuery } from './today-views.js'
import { isSpaceAddress, isValidSpaceType } from '../space-address.js'
import { AttendanceHistoryView, DoorView } from './door-views.js'
import { MAX_CAPACITY } from '../rsvp-standing.js'
import { cleanHandle, handleProblem } from '../handle-syntax.js'
import { knownZone, parseRRule, SERIES_ID } from '../recurrence.js'

const Empty = z.object({}).strict()

export const NetworkView = z.object({
  /** 'local' when the app runs against `npm run stack`; 'atproto' for the real network. */
  kind: z.enum(['local', 'atproto']),
  pdsUrl: z.string().nullable(),
  hostUrl: z.string().nullable(),
})

export const AppInfoView = z.object({
  name: z.string(),
  version: z.string(),
  /** Which shell carries this contract: Electron IPC or the loopback HTTP shell. */
  shell: z.enum(['electron', 'loopback']),
  network: NetworkView,
  keychain: z.object({ available: z.boolean(), message: z.string().nullable() }),
})

export const AccountView = z.object({
  did: z.string(),
  handle: z.string(),
  /** 'needs-sign-in' when the session was revoked or expired; queued work is kept. */
  status: z.enum(['active', 'needs-sign-in']),
})

const Did = z.string().regex(/^did:[a-z]+:[a-zA-Z0-9._:%-]+$/, 'not a DID')

export const SignInStartView = z.object({
  attemptId: z.string(),
  /** The person's PDS sign-in page; the renderer opens it unless the shell already did. */
  authorizeUrl: z.string(),
  openedExternally: z.boolean(),
})

/** One pending change: the account that queued it and its id in that account's outbox. */
const OutboxItemRef = z.object({ accountDid: Did, id: z.number().int().positive() }).strict()
const InGroup = z.object({ accountDid: Did, groupDid: Did }).strict()
const Subject = z.union([z.object({ did: Did }).strict(), z.object({ uri: z.string().startsWith('at://'), cid: z.string().optional() }).strict()])

const Rkey = z.string().regex(/^[a-zA-Z0-9._:~-]{1,512}$/, 'not a record key')
const IsoDate = z.string().datetime({ offset: true, message: 'not a date and time' })
const LinkUri = z.string().trim().max(2000).url('a link is a full address such as https://example.com/')
const PlacePart = z.string().trim().max(300).optional()
const EventAddress = z
  .object({
    kind: z.literal('address'),
    // The lexicon requires it (ISO 3166, 2 to 10 characters).
    country: z.string().trim().min(2, 'give the country code, such as DE or US').max(10),
    name: PlacePart,
    street: PlacePart,
    locality: PlacePart,
    region: PlacePart,
    postalCode: PlacePart,
  })
  .strict()
const EventUri = z.object({ kind: z.literal('uri'), uri: LinkUri, name: PlacePart }).strict()
const EventLink = z.object({ uri: LinkUri, name: PlacePart }).strict()
/** The series an occurrence belongs to (shared/recurrence.ts): one of the rules Convene writes, in a zone this computer knows. */
const EventSeries = z
  .object({
    id: z.string().regex(SERIES_ID, 'not a series id'),
    rrule: z.string().refine((r) => parseRRule(r) !== null, 'not a weekly or monthly rule with a count'),
    tzid: z.string().min(1).max(64).refine(knownZone, 'not a time zone'),
    dtstart: IsoDate,
    recurrenceId: IsoDate,
  })
  .strict()
const EventFields = z
  .object({
    name: z.string().trim().min(1, 'give the event a name').max(300),
    startsAt: IsoDate,
    endsAt: IsoDate.optional(),
    description: z.string().max(3000).optional(),
    /** Only kept for an event that had it before the published lexicon (no new event writes it). */
    location: z.string().max(300).optional(),
    mode: z.enum(EVENT_MODES).optional(),
    status: z.enum(EVENT_STATUSES).optional(),
    /** The places Convene's form edits: addresses and links; other kinds stay on the record as they are. */
    locations: z.array(z.discriminatedUnion('kind', [EventAddress, EventUri])).max(20).optional(),
    uris: z.array(EventLink).max(20).optional(),
    /** Set when the event is an occurrence of a weekly or monthly series; an edit that leaves it out keeps it. */
    series: EventSeries.optional(),
  })
  .strict()
  // Compared as instants: the two may carry different offsets (across a summer-time change).
  .refine((e) => !e.endsAt || Date.parse(e.endsAt) >= Date.parse(e.startsAt), { message: 'the event cannot end before it starts', path: ['endsAt'] })
/** What an organizer edits of a calendar event (community.lexicon.calendar.event), as `event.create` and `event.update` carry it. */
export type EventFieldsInput = z.output<typeof EventFields>

const SpaceType = z.string().refine(isValidSpaceType, 'a space type is a dotted name such as community.lexicon.calendar')
const SpaceAddress = z.string().refine(isSpaceAddress, 'a space address is at://<group DID>/space/<type>/<skey>')
const Roles = z.array(z.string().min(1).max(64)).max(50)
const RoleName = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'a role name is a lowercase letter, then up to 31 lowercase letters, digits or hyphens')
const Scopes = z
  .array(z.object({ role: z.string().min(1).max(64), scopes: z.array(z.string().min(1).max(317)).max(50) }).strict())
  .max(50)

/** A page of a long list, searched in the core (see main/core/reading/list-pages.ts). */
const PageQuery = {
  /** Matches in part, any case; a leading @ is ignored. Members: DID or handle; requests: DID or message. */
  q: z.string().max(253).optional(),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(200),
}

/** The actions that go through the outbox; each kind's spec is in its domain folder (see main/core/actions/registry.ts). */
/** A walk-in's handle as typed at the door, kept as the handle resolver will ask for it (no @, lower case). */
const WalkInHandle = z
  .string()
  .transform((h) => cleanHandle(h).toLowerCase())
  .refine((h) => handleProblem(h) === null, 'not a handle')

/** An event's picture as chosen (issue 27), base64 (the host's limit is 1,000,000 bytes; it sniffs the type). */
const EventImage = z.object({ data: z.string().base64().max(1_400_000), mimeType: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']), alt: z.string().trim().max(1000) }).strict()

export const GroupAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('joinRequest.decide'), did: Did, decision: z.enum(['admit', 'deny']), roles: z.array(z.string().min(1).max(64)).max(20).optional() }).strict(),
  z.object({ kind: z.literal('invite.create'), invitee: Did, message: z.string().max(3000).optional() }).strict(),
  z.object({ kind: z.literal('invite.revoke'), invitee: Did }).strict(),
  z.object({ kind: z.literal('member.grantRole'), did: Did, role: z.string().min(1).max(64) }).strict(),
  z.object({ kind: z.literal('member.revokeRole'), did: Did, role: z.string().min(1).max(64) }).strict(),
  z.object({ kind: z.literal('member.eject'), did: Did, note: z.string().max(3000).optional() }).strict(),
  // The places it takes and its picture, set with it (the host keeps both apart from the record): absent, none.
  z.object({ kind: z.literal('event.create'), event: EventFields, capacity: z.number().int().min(0).max(MAX_CAPACITY).optional(), image: EventImage.optional() }).strict(),
  z.object({ kind: z.literal('event.update'), rkey: Rkey, event: EventFields }).strict(),
  z.object({ kind: z.literal('event.delete'), rkey: Rkey }).strict(),
  z.object({ kind: z.literal('event.rsvp'), rkey: Rkey, status: z.enum(RSVP_STATUSES) }).strict(),
  z.object({
    kind: z.literal('post.create'),
    // Bluesky's post: at most 300 graphemes (3000 bytes); counted by characters here, the host checks the rest.
    text: z.string().trim().min(1, 'write something to post').max(300),
    link: z.object({ uri: z.string().url().max(2048), title: z.string().max(300), description: z.string().max(1000).optional() }).strict().optional(),
    /** A picture, base64 (the host's limit is 1 MB; the host sniffs its type from the bytes). */
    image: z
      .object({ data: z.string().base64().max(1_400_000), mimeType: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']), alt: z.string().trim().max(1000) })
      .strict()
      .optional(),
  }).strict(),
  // Pins one of the group's posts to its public profile (null: unpins).
  z.object({ kind: z.literal('post.pin'), post: z.object({ uri: z.string().startsWith('at://').max(2048), cid: z.string().min(1).max(200) }).strict().nullable() }).strict(),
  z.object({ kind: z.literal('membership.accept') }).strict(),
  z.object({ kind: z.literal('space.create'), type: SpaceType, skey: Rkey, name: z.string().trim().min(1).max(64), readableBy: Roles, credentialScopes: Scopes }).strict(),
  z.object({ kind: z.literal('space.update'), space: SpaceAddress, name: z.string().trim().min(1).max(64).optional(), readableBy: Roles.optional(), credentialScopes: Scopes.optional() }).strict(),
  z.object({ kind: z.literal('space.delete'), space: SpaceAddress }).strict(),
  z.object({ kind: z.literal('membership.leave') }).strict(),
  z.object({ kind: z.literal('membership.request'), message: z.string().trim().max(3000).optional() }).strict(),
  z.object({ kind: z.literal('membership.cancelRequest') }).strict(),
  z.object({ kind: z.literal('subject.update'), key: z.string().min(1), subject: Subject, status: z.enum(['open', 'escalated', 'resolved']), note: z.string().max(3000).optional() }).strict(),
  /** A moderator's act on a reported subject (issue 17), kept in its history on the host. */
  z
    .object({
      kind: z.literal('subject.event'),
      key: z.string().min(1),
      subject: Subject,
      /** assign: "I'm on it" (the others see who has it); unassign: released by hand. */
      event: z.enum(MODERATION_EVENTS),
      note: z.string().max(3000).optional(),
    })
    .strict(),
  /** A member's report of an event, a member or another record, with atproto's reason type. */
  z.object({ kind: z.literal('report.create'), subject: Subject, reasonType: z.string().min(1).max(256), reason: z.string().max(2000).optional() }).strict(),
  /** The group's profile and join policy (issue 25); a field left out stays, an empty text clears it. */
  z
    .object({
      kind: z.literal('group.configure'),
      displayName: z.string().trim().max(64).optional(),
      description: z.string().trim().max(256).optional(),
      joinPolicy: z.enum(['open', 'approval', 'invite']).optional(),
      /** A new avatar, the image's bytes in base64 (the host checks its type and its 64 KB). */
      avatar: z.string().min(1).max(87_384).regex(/^[A-Za-z0-9+/]*={0,2}$/).optional(),
      removeAvatar: z.literal(true).optional(),
    })
    .strict(),
  /** A role the group defines, or what an existing one may do and assign. */
  z.object({ kind: z.literal('role.put'), name: RoleName, actions: z.array(z.string().min(1).max(64)).max(20), assignable: z.array(RoleName).max(20), previousName: RoleName.optional() }).strict(),
  z.object({ kind: z.literal('role.delete'), name: RoleName }).strict(),
  /** An event's image (issue 27), base64 (the host's limit is 1,000,000 bytes; it sniffs the type); null removes it. */
  z.object({
    kind: z.literal('event.image'),
    rkey: Rkey,
    image: EventImage.nullable(),
  }).strict(),
  /** A person checked in at an event's door (issue 27): a group-authored attendance record, queued offline; a walk-in came without answering "going". */
  /**
   * A walk-in nobody in the door's list has may be named by `handle` alone when it cannot be
   * looked up now (the network is gone): resolved when sent. One of `did` and `handle` is
   * required (CheckedGroupAction); stored rows from before `handle` name a `did`.
   */
  z.object({ kind: z.literal('attendance.checkIn'), rkey: Rkey, did: Did.optional(), handle: WalkInHandle.optional(), walkIn: z.boolean().default(false) }).strict(),
  /** A check-in taken back after it was sent: the record is deleted. */
  z.object({ kind: z.literal('attendance.undo'), rkey: Rkey, did: Did }).strict(),
  /** An event's capacity, which the host keeps (issue 27 point 2); null: no limit. */
  z.object({ kind: z.literal('event.capacity'), rkey: Rkey, capacity: z.number().int().min(0).max(MAX_CAPACITY).nullable() }).strict(),
  /** An organizer moves a member who is going between going and the waitlist by hand. */
  z.object({ kind: z.literal('event.standing'), rkey: Rkey, did: Did, standing: z.enum(['going', 'waitlisted']) }).strict(),
])

/**
 * A requested action as the app takes it: GroupAction, with what its members' shapes alone
 * cannot say (a discriminated union takes plain objects only): a check-in names a person,
 * by DID or, for a walk-in not looked up yet, by handle.
 */
export const CheckedGroupAction = GroupAction.superRefine((a, ctx) => {
  if (a.kind === 'attendance.checkIn' && !a.did && !a.handle) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'a check-in names a person: their DID or their handle', path: ['did'] })
})

/**
 * A group this computer acts as (spec section 5's group session): no token crosses, only
 * who the group is and, from the scope its host granted, what the app may do as it.
 */
export const GroupSessionView = z.object({
  did: z.string(),
  /** Only when it resolves back to the group's DID. */
  handle: z.string().nullable(),
  hostUrl: z.string(),
  /** 'needs-sign-in' once the host ended the session (revoked, expired). */
  status: z.enum(['active', 'needs-sign-in']),
  /** What the granted scope allows, in plain words; the app offers only these. */
  abilities: z.array(z.object({ key: z.enum(GROUP_ABILITY_KEYS), words: z.string() })),
})

/** The updater's state, for the "Restart to update" notice. */
export const UpdateStatusView = z.object({
  /** 'unavailable' in the loopback shell and development runs: updates come with the installed app. */
  state: z.enum(['unavailable', 'idle', 'checking', 'downloading', 'ready', 'waiting', 'restarting', 'error']),
  /** The version found or downloaded. */
  version: z.string().nullable(),
  /** While a restart waits: how many changes are still to be sent first. */
  pendingChanges: z.number().int(),
  /** Whether to offer "Restart to update" now. */
  canRestart: z.boolean(),
  /** Plain words for the person. */
  message: z.string(),
})

export const contract = {
  'app.getInfo': { input: Empty, output: AppInfoView },
  /** Brings the app's window to the front, e.g. when one of its notifications is clicked. */
  'app.raiseWindow': { input: Empty, output: z.object({}) },
  'app.updateStatus': { input: Empty, output: UpdateStatusView },
  /** Restarts into the downloaded version, once no change waits to be sent (until then it waits and says so). */
  'app.restartToUpdate': { input: Empty, output: UpdateStatusView },
  /**
   * Shows the folder that holds the app's log (where "the details are in its log" points).
   * Electron opens it in the file manager; a browser tab cannot, so the loopback shell
   * answers `opened: false` and the page shows the path.
   */
  'app.openLogFolder': { input: Empty, output: z.object({ folder: z.string(), opened: z.boolean() }) },
  'accounts.list': { input: Empty, output: z.array(AccountView) },
  'accounts.signIn': {
    input: z
      .object({
        handle: z.string().trim().min(1, 'enter your handle').max(253),
        /** Extra scopes to ask for, e.g. the one a ScopeMissingError named. */
        scopes: z.array(z.string().regex(/^(rpc|repo|include):[\w.:?=&%#*-]+$/, 'not a scope')).max(20).optional(),
      })
      .strict(),
    output: SignInStartView,
  },
  'accounts.awaitSignIn': { input: z.object({ attemptId: z.string().uuid() }).strict(), output: AccountView },
  'accounts.signOut': { input: z.object({ did: Did }).strict(), output: z.object({}) },
  'groups.list': { input: Empty, output: z.array(GroupSummaryView) },
  'groups.add': { input: z.object({ accountDid: Did, ref: z.string().trim().min(1).max(253) }).strict(), output: GroupSummaryView },
  'groups.refresh': { input: InGroup, output: GroupSummaryView },
  /**
   * Looks on every host the app knows (the local network's, and each added group's) for
   * the groups where the account holds a role, and adds those not yet in its list.
   */
  'groups.findMine': { input: z.object({ accountDid: Did }).strict(), output: z.object({ added: z.number().int(), unreachableHosts: z.array(z.string()) }) },
  'groups.joinRequests': { input: InGroup.extend(PageQuery).strict(), output: JoinRequestPageView },
  /** Every open request matching a search, so "select all" means all of them, not the pages loaded. */
  'groups.openJoinRequests': { input: InGroup.extend({ q: PageQuery.q }).strict(), output: OpenJoinRequestsView },
  'groups.members': { input: InGroup.extend(PageQuery).strict(), output: MemberPageView },
  /** A person by handle or DID, to their DID (and handle): for inviting by handle. */
  'people.resolve': { input: z.object({ ref: z.string().trim().min(1).max(2048) }).strict(), output: PersonView },
  'groups.invites': { input: InGroup.extend(PageQuery).strict(), output: InvitePageView },
  'groups.subjects': {
    input: InGroup.extend({
      ...PageQuery,
      /** The whole queue (not resolved), or only open or only escalated reports. */
      status: z.enum(['queue', 'open', 'escalated']).default('queue'),
      /** Only subjects with a report of this reason type; only accounts or records; the order. */
      reasonType: z.string().max(256).optional(),
      subjectKind: z.enum(['account', 'record']).optional(),
      sort: z.enum(['recent', 'mostReports', 'newestReport']).default('recent'),
    }).strict(),
    output: SubjectPageView,
  },
  /** Resolved reports, newest decision first, from the host (online only): to look again, restore or reopen. */
  'groups.resolvedSubjects': { input: InGroup.extend({ cursor: z.string().max(1024).optional() }).strict(), output: ResolvedSubjectPageView },
  /** One subject for the moderator's pane: the thing reported, every report, the history (read from the host). */
  'groups.subject': { input: InGroup.extend({ key: z.string().min(1).max(2048) }).strict(), output: SubjectDetailView },
  /** Who did what in the group, newest first, read from the host (for those who may configure it). */
  'groups.auditLog': { input: InGroup.extend(AuditFilter).strict(), output: AuditPageView },
  /** Whether someone was a member before, and is banned (for those who admit or eject). */
  'groups.memberHistory': { input: InGroup.extend({ did: Did }).strict(), output: MemberHistoryView },
  /**
   * Invites a list of people at once (handles or DIDs, e.g. pasted or from a CSV): each
   * looked up, those already members or invited left, the rest queued together; what
   * became of each, in order. Running the same list again sends nothing twice.
   */
  'invites.createMany': {
    input: InGroup.extend({ refs: z.array(z.string().trim().min(1).max(2048)).min(1).max(500), message: z.string().max(3000).optional() }).strict(),
    output: z.object({ results: z.array(InviteListResultView) }),
  },
  /** The person's own invites on every host the app knows (live: each is answered once). */
  'invites.mine': { input: z.object({ accountDid: Did }).strict(), output: MyInvitesView },
  /** Accepting one: the group joins the list, and asking to join (which redeems it) and accepting are queued. */
  'invites.accept': { input: InGroup, output: Empty },
  /** Turning one down, at once, at the group's host. */
  'invites.decline': { input: InGroup, output: Empty },
  /** The group's latest public posts, read live from its repository on the host. */
  'groups.publicPosts': { input: InGroup, output: z.array(PublicPostView) },
  'groups.events': { input: InGroup, output: z.array(EventView) },
  'groups.spaces': { input: InGroup, output: z.array(SpaceView) },
  'groups.create': {
    input: z.object({ accountDid: Did, handle: z.string().trim().min(3).max(253), displayName: z.string().max(64).optional(), joinPolicy: z.enum(['open', 'approval', 'invite']), hostUrl: z.string().url().optional() }).strict(),
    output: GroupSummaryView,
  },
  'groups.act': {
    input: InGroup.extend({
      action: CheckedGroupAction,
      /**
       * Keep the action back this many ms before it is sent, so the person can undo it
       * (`outbox.cancel`) before anything reaches the host: the Undo of a one-key decision.
       */
      hold: z.number().int().min(0).max(60_000).optional(),
    }).strict(),
    output: z.object({ outboxId: z.number().int() }),
  },
  /**
   * Several actions queued at once, all or none (admit or deny many requests, a bulk
   * resolve); `hold` keeps them all back for Undo, as `groups.act`'s does.
   */
  'groups.actMany': {
    input: InGroup.extend({ actions: z.array(CheckedGroupAction).min(1).max(10_000), hold: z.number().int().min(0).max(60_000).optional() }).strict(),
    output: z.object({ outboxIds: z.array(z.number().int()) }),
  },
  'outbox.list': { input: Empty, output: z.array(OutboxItemView) },
  /** Cancels a change not yet sent (queued or waiting to try again) and takes back what it showed; refused once it is being sent. */
  'outbox.cancel': { input: OutboxItemRef, output: Empty },
  /** Sends a change that is waiting to try again, or that failed, now. */
  'outbox.retry': { input: OutboxItemRef, output: Empty },
  /** Removes for good a change that was not applied (refused or given up on). */
  'outbox.dismiss': { input: OutboxItemRef, output: Empty },
  'sync.now': { input: Empty, output: z.object({}) },
  /** Progress of the sync under way (or the last one) per group: read at start, then told by `sync.progress` notices. */
  'sync.status': { input: Empty, output: SyncStatusView },
  /** "Act as a group": sign in with a group's handle or DID through the person's browser (the host's pages). */
  'groupSessions.list': { input: Empty, output: z.array(GroupSessionView) },
  'groupSessions.signIn': { input: z.object({ group: z.string().trim().min(1, 'enter the group’s handle').max(253) }).strict(), output: SignInStartView },
  'groupSessions.awaitSignIn': { input: z.object({ attemptId: z.string().uuid() }).strict(), output: GroupSessionView },
  /** Revokes the group session at its host and forgets it. */
  'groupSessions.signOut': { input: z.object({ did: Did }).strict(), output: z.object({}) },
  /** Adds an event to the group's calendar as the group, through its session (no getGroupAuth). */
  'groupSessions.createEvent': { input: z.object({ groupDid: Did, event: EventFields }).strict(), output: z.object({ uri: z.string(), rkey: z.string() }) },
  /** A page of Today: what waits for the person in every group of every account, from the caches only (main/core/today/). */
  'today.items': { input: z.object(TodayQuery).strict(), output: TodayPageView },
  /** Door mode for one event (issue 27): who may come and who is checked in, from the cache only. */
  'groups.door': { input: InGroup.extend({ rkey: Rkey }).strict(), output: DoorView },
  /** A member's attendance over the group's last past events where attendance was taken ("came to 4 of the last 6"). */
  'groups.attendanceHistory': { input: InGroup.extend({ did: Did }).strict(), output: AttendanceHistoryView },
  /** One event image's bytes as a data: URL, by the CID its event names, from the cache only (null: not held); asked for once per picture. */
  'groups.eventImage': {
    input: InGroup.extend({ cid: z.string().min(1).max(200) }).strict(),
    output: z.object({ url: z.string().regex(/^data:image\/(png|jpeg|webp|gif);base64,/) }).nullable(),
  },
} as const

/**
 * A group's cached lists as notices name them; the window re-reads a list only when a
 * notice names it (members: `groups.members`, joinRequests: `groups.joinRequests`…).
 */
export const GROUP_LISTS = ['members', 'joinRequests', 'invites', 'subjects', 'events', 'spaces'] as const
export type GroupList = (typeof GROUP_LISTS)[number]

/** What changed in one group since the core's last notice about it. */
export const GroupChangeView = z.object({
  accountDid: z.string(),
  groupDid: z.string(),
  /** The group's summary as `groups.list` now answers it; null when the core cannot say (read `groups.list` again). */
  summary: GroupSummaryView.nullable(),
  /** The cached lists that changed (all of them when the core cannot tell). */
  lists: z.array(z.enum(GROUP_LISTS)),
})

/**
 * What the core tells the window without being asked: typed change notices, pushed over
 * Electron IPC (webContents.send, exposed by the preload as `onNotice`) or over the
 * loopback shell's event stream. The core sends at most one notice per name per turn of
 * its event loop, merging what changed in it, and each says what changed, so the window
 * updates from the notice or re-reads only that, from the core's cache; it polls nothing the
 * notices cover (only the update status, UpdateNotice.vue).
 * Like the channels' outputs, each payload is parsed through its schema before it
 * crosses, so only the named keys go out.
 */
export const notices = {
  /** Groups' summaries or cached lists changed (a sync brought news, an action was queued or confirmed). */
  'group.changed': z.object({ groups: z.array(GroupChangeView) }),
  /** Groups were added to or taken off an account's list. */
  'groups.changed': z.object({}),
  /**
   * The outbox changed: actions were queued, sent, refused or are waiting. `items` are
   * the changed ones as they now stand (a `done` one has left the outbox); `readAll`
   * says the core cannot tell which changed, so `outbox.list` is read again.
   */
  'outbox.changed': z.object({ items: z.array(OutboxItemView), readAll: z.boolean() }),
  /** Where the sync under way stands, group by group (the same view `sync.status` answers). */
  'sync.progress': SyncStatusView,
  /** An account signed in or out, or its session ended (needs sign-in); null: more than one did. */
  'account.state': z.object({ did: z.string().nullable() }),
  /** What Today holds changed: how many items wait now (the title and badge count), and its revision (read its pages again). */
  'today.changed': z.object({ waiting: z.number().int(), revision: z.number().int() }),
} as const

export type Notices = typeof notices
export type NoticeName = keyof Notices
/** One notice as it crosses: its name and its payload. */
export type Notice = { [N in NoticeName]: { name: N; payload: z.output<Notices[N]> } }[NoticeName]
export const NOTICE_NAMES = Object.freeze(Object.keys(notices) as NoticeName[])
/** The Electron channel notices travel on (main -> renderer only; never a handled channel). */
export const NOTICE_CHANNEL = 'convene:notice'

/** Parses a notice through its schema: unknown names and extra keys never cross. */
export function parseNotice(raw: unknown): Notice | null {
  if (!raw || typeof raw !== 'object') return null
  const { name, payload } = raw as { name?: unknown; payload?: unknown }
  if (typeof name !== 'string' || !Object.hasOwn(notices, name)) return null
  const parsed = notices[name as NoticeName].safeParse(payload)
  return parsed.success ? ({ name, payload: parsed.data } as Notice) : null
}

export type Contract = typeof contract
export type Channel = keyof Contract
export type ChannelInput<C extends Channel> = z.input<Contract[C]['input']>
/** The input after validation, as handlers in the main process receive it. */
export type ParsedInput<C extends Channel> = z.output<Contract[C]['input']>
export type ChannelOutput<C extends Channel> = z.output<Contract[C]['output']>

export type AppInfo = z.output<typeof AppInfoView>
export type Account = z.output<typeof AccountView>
export type UpdateStatus = z.output<typeof UpdateStatusView>
export type GroupSession = z.output<typeof GroupSessionView>
export type GroupChange = z.output<typeof GroupChangeView>

export const CHANNELS = Object.freeze(Object.keys(contract) as Channel[])

export const isChannel = (name: unknown): name is Channel =>
  typeof name === 'string' && Object.hasOwn(contract, name)
