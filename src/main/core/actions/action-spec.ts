import { isValidDid, isValidTid } from '@atproto/syntax'
import type { Kysely, Transaction } from 'kysely'
import { z } from 'zod'
import type { GroupAction } from '@shared/ipc/contract.js'
import type { KnownValues } from '@shared/known-values.js'
import type { CacheSchema } from '../cache/cache-db.js'
import type { ListName } from '../cache/list-names.js'
import type { OAuthSession } from '@atproto/oauth-client'
import type { CacheDb } from '../cache/cache-db.js'
import type { GroupCredentials } from '../credentials/group-credentials.js'
import type { HostClient } from '../xrpc/host-client.js'
import type { ProcedureNsid } from '../xrpc/methods.js'
import type { Change as LexChange } from '@node/lexicon/types/example/groups/defs.js'

export type Tx = Transaction<CacheSchema>
type Db = Kysely<CacheSchema> | Tx

/** An action as the renderer asks for it: the IPC contract's GroupAction, parsed. */
export type RequestedAction = z.output<typeof GroupAction>
export type ActionKind = RequestedAction['kind']
type Requested<K extends ActionKind> = Omit<Extract<RequestedAction, { kind: K }>, 'kind'>
/** The shape of what the core chooses when it queues an action; each kind's spec chooses it (`chooseWhenQueued`). */
export const CHOSEN_WHEN_QUEUED = {
  /** A new event's record key, so a replay re-sends the same record. */
  'event.create': z.object({ rkey: z.string().refine(isValidTid, 'not a record key') }),
  /** A post's record key, so a replay re-sends the same post. */
  'post.create': z.object({ rkey: z.string().refine(isValidTid, 'not a record key') }),
  /** Who takes a subject ("I'm on it"): the account acting, shown as having it at once. */
  'subject.event': z.object({ by: z.string().refine(isValidDid, 'not a DID').optional() }),
  /** A check-in's time and the door laptop it was made on: when the person was at the door, not when the network came back. */
  'attendance.checkIn': z.object({ checkedInAt: z.string().datetime(), device: z.string().min(1).max(64) }),
} satisfies Partial<Record<ActionKind, z.AnyZodObject>>
type ChosenWhenQueued = { [K in keyof typeof CHOSEN_WHEN_QUEUED]: z.output<(typeof CHOSEN_WHEN_QUEUED)[K]> }
/** Every action the app can queue, by kind: the contract's fields, plus what the core chose. */
export type ActionPayloads = { [K in ActionKind]: Requested<K> & (K extends keyof ChosenWhenQueued ? ChosenWhenQueued[K] : unknown) }

/** A kind of change the host records in a group's log (lexicons/example/groups/defs.json#change.kind). */
export type ChangeKind = KnownValues<LexChange['kind']>
/** An entry of a group's change log, as read (an unknown kind is kept: it makes the group read whole). */
export type Change = Pick<LexChange, 'seq' | 'kind' | 'subject' | 'createdAt'>
/** A change of ours the host confirmed: from its log, or from the write's own answer. */
export interface ConfirmedChange {
  kind: ChangeKind
  subject?: string
  createdAt: string
}

/**
 * What a write answered, read defensively: hosts that record the change answer `seq`
 * (its position in the change log) and, for a new invite, its `uri`; an older host
 * answers neither, and the change log tells instead.
 */
export interface WriteAnswer {
  seq?: number
  uri?: string
}
export function writeAnswer(output: unknown): WriteAnswer {
  if (typeof output !== 'object' || output === null) return {}
  const { seq, uri } = output as Record<string, unknown>
  return {
    ...(typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 ? { seq } : {}),
    ...(typeof uri === 'string' && uri.length > 0 ? { uri } : {}),
  }
}

/** What an action's identifiers are read against: the cache (before settling), the group, the account acting. */
/**
 * What an action may use to send itself and to check it was applied (issue 37 point 2):
 * the account's way to its groups' hosts, its group credentials, its own PDS session, and
 * its cache; not the whole account runtime (its outbox, its other accounts' business).
 * The account runtime (session/account-runtime.ts) is one.
 */
export interface ActionDeps {
  /** The client for a group's host, with service auth. */
  hostOf(groupDid: string): Promise<HostClient>
  /** Writes as the group, with a DPoP-bound group credential. */
  readonly credentials: GroupCredentials
  /** The account's own OAuth session, for its records on its own PDS. */
  readonly session: () => Promise<OAuthSession>
  readonly cache: CacheDb
  /** Spaces known to exist, so a repeated write does not look them up again. */
  readonly knownSpaces: Set<string>
  /** A door walk-in's handle to their DID (people/walk-in-lookup.ts). */
  readonly walkIns: (handle: string) => Promise<string>
}

/** How a cancelled action's cached effect is taken back (ActionSpec.undo). */
export type UndoKind = 'unmark' | 'remove' | 'reread' | 'none'

/** How an action's label names the person it is about (people/name-labels.ts). */
export type NameOf = (did: string) => string

export interface ActionContext {
  cache: Db
  groupDid: string
  me: string
  answer: WriteAnswer
}

/**
 * Everything the app knows about one kind of action, in one place: how it is checked,
 * shown, applied to the cache, sent, refused, and confirmed. One table per domain
 * folder (membership, invites, roles, moderation, calendar, spaces) gives each kind its
 * spec; actions/registry.ts joins them.
 */
interface ActionSpecBase<K extends ActionKind> {
  /** The outbox row's words; `name` says a person by name ("yourself", a display name, a handle: people/name-labels.ts), never by DID. */
  label(p: ActionPayloads[K], name: NameOf): string
  /**
   * How its cached effect is taken back when it is cancelled before it is sent (Undo):
   * - unmark: it only marked a row pending (a decided request, a removed member, a deleted
   *   event): the row is as the host last said, so the mark goes and it shows again;
   * - remove: it wrote a row the host has never seen (a new event, space, own request): it goes;
   * - reread: it changed a row in place (roles, an edit, an RSVP): the row is put back as it
   *   was (kept by putItem), at once; where a later action changed the row on top, the row
   *   stays marked pending and the group is read whole at its next sync;
   * - none: it had no cached effect.
   */
  undo: UndoKind
  /** Checked against the cache before queueing; throws the UserFacingError the person reads. */
  validate?(cache: Db, groupDid: string, p: ActionPayloads[K]): Promise<void>
  /** The cached effect, applied when queued and re-applied over each refresh until sent. */
  applyToCache(tx: Tx, groupDid: string, p: ActionPayloads[K], outboxId: number): Promise<void>
  /**
   * Sends the action: a host method with service auth (viaHost), a group credential, or
   * the member's own PDS; answers what the host answered. `key` is the queued action's
   * idempotency key (hosts that take one, such as createReport, count a replay once).
   */
  send(deps: ActionDeps, groupDid: string, p: ActionPayloads[K], key: string): Promise<unknown>
  /** Refusals that mean the world moved on, in plain words (never retried). */
  conflicts: Partial<Record<string, string>>
  /** After an interrupted attempt: is the intended end state already there? */
  alreadyApplied?(deps: ActionDeps, groupDid: string, p: ActionPayloads[K]): Promise<boolean>
  /**
   * The host methods it is sent through with service auth, and the group ability that
   * lets its holder use them (none: every member): the scopes a sign-in must grant.
   */
  scope?: { ability?: string; methods: ProcedureNsid[] }
  /** The kinds of change it makes in the log; a change of these kinds naming one of its identifiers is ours. */
  changes: readonly ChangeKind[]
  /** The list its cached effect lives in (read again when the host refused it). */
  list: ListName | null
  /** Once confirmed, the rows it marked go (a decided request, a revoked invite) or stay, no longer pending. */
  confirmed: 'remove' | 'keep'
  /** What identifies what it touched, as the change log names it (DIDs, addresses, the host's ids). */
  identifiers(p: ActionPayloads[K], ctx: ActionContext): string[] | Promise<string[]>
  /**
   * A change of this kind names what the action made by an address only the host knows
   * (a new invite's): without an answer naming it, one such change per sent action is ours, in order.
   */
  namedByLog?: ChangeKind
  /** Takes from a confirmed change what only the host knew (an admitted member's joining time, a new invite's address). */
  settle?(tx: Tx, groupDid: string, p: ActionPayloads[K], change: ConfirmedChange, outboxId: number): Promise<void>
  /**
   * Whether it makes changes beyond its own kinds that must be read back from the log
   * like anyone else's (an ejection's revoked invites, a takedown's hidden record): then
   * its answer alone does not settle it. An action with no change kinds of its own is
   * always read back.
   */
  readBack?(p: ActionPayloads[K]): boolean
  /**
   * Whether its own changes still read again the lists they name: the host decides more
   * than the action says (an RSVP's place at its event, going or waitlisted), so what the
   * cache holds after it is only the host's to tell.
   */
  rereads?: boolean
  /** The changes its answer confirms, when the host answered what it made: settled without reading the log. */
  answered?(p: ActionPayloads[K], answer: WriteAnswer, ctx: { groupDid: string; now: string }): ConfirmedChange[]
}

/** One domain folder's actions: each of its kinds (which must be real kinds) with its spec. */
export type ActionTable<Kinds extends ActionKind> = { [K in Kinds]: ActionSpec<K> }

/**
 * The kinds with values chosen when queued (CHOSEN_WHEN_QUEUED) must choose them, and
 * only those may: the compiler holds the table to it.
 */
type ChoosesWhenQueued<K extends ActionKind> = K extends keyof ChosenWhenQueued
  ? {
      /** What the core chooses as it queues the action, once, so every replay sends the same (a new record's key, when a check-in was made). */
      chooseWhenQueued(requested: Requested<K>, ctx: { accountDid: string }): ChosenWhenQueued[K]
    }
  : { chooseWhenQueued?: never }

/** Everything about one kind of action (ActionSpecBase), with what it chooses when queued where it does. */
export type ActionSpec<K extends ActionKind> = ActionSpecBase<K> & ChoosesWhenQueued<K>

/** A report's subject, as the lexicon's union needs it named. */
export type Subject = { did: string } | { uri: string; cid?: string }
export const typedSubject = (s: Subject) => ('did' in s ? { $type: 'example.groups.defs#subjectAccount', did: s.did } : { $type: 'example.groups.defs#subjectRecord', ...s })
/** A subject as the change log names it: the account's DID or the record's address. */
export const subjectId = (s: Subject): string => ('did' in s ? s.did : s.uri)

/** What an organizer edits of a calendar event (community.lexicon.calendar.event). */
export type EventFields = ActionPayloads['event.create']['event']
