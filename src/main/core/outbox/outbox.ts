import { randomUUID } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { CacheDb, CacheSchema, OutboxState } from '../cache/cache-db.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { toIpcError, UserFacingError } from '../ipc/errors.js'
import { errorFields, log } from '../log/log.js'
import { isLastingLimit, lastingLimitWords } from './lasting-limit.js'

export interface OutboxRow {
  id: number
  idempotencyKey: string
  groupDid: string
  kind: string
  payload: unknown
  label: string
  state: OutboxState
  attempts: number
  lastError: string | null
  createdAt: string
}

/** How one kind of queued action is sent, and what its refusals mean. */
export interface ActionHandler {
  /**
   * Sends the action to the host; `key` is the row's idempotency key (sent where the host
   * takes one). Resolves to the host's answer, which the catch-up reads what the write made from.
   */
  send(groupDid: string, payload: unknown, key: string): Promise<unknown>
  /**
   * Refusals that mean the world moved on (someone else decided the request, the member
   * was already ejected): shown as conflicts in plain language, never retried.
   */
  conflicts: Record<string, string>
  /**
   * After an interrupted attempt, a refusal may be our own earlier success. This checks
   * the intended end state; true means the action took effect and is done.
   */
  alreadyApplied?(groupDid: string, payload: unknown): Promise<boolean>
}

type Tx = Transaction<CacheSchema>

const WAIT_FOR_PERSON = new Set(['SignInRequired', 'KeychainUnavailable', 'ScopeMissingError'])

/**
 * Whether a failure means "keep it and try again later" (offline, host down, sign-in
 * ended, a rate limit that lifts in a moment) rather than "the host refused it" (a
 * rate limit that lasts: lasting-limit.ts). Unknown failures are kept too: a queued
 * action is never dropped because of our own bug.
 */
export function retryLater(err: unknown): boolean {
  if (err instanceof XrpcCallError) return err.status === 0 || err.status === 401 || (err.status === 429 && !isLastingLimit(err)) || err.status >= 500
  if (err instanceof UserFacingError) return WAIT_FOR_PERSON.has(err.code) || err.code === 'HostUnreachable'
  return true
}

/**
 * What a person reads on a row that has not gone out: plain words, never a method name
 * or a socket error (the row's state says whether it will be tried again). The
 * technical error goes to the log.
 */
export function plainReason(err: unknown): string {
  if (isLastingLimit(err)) {
    log.warn('outbox', 'refused by a lasting limit', errorFields(err))
    return lastingLimitWords(err)
  }
  return toIpcError(err, (e) => log.warn('outbox', 'not sent', errorFields(e))).message
}

/**
 * Actions taken while offline (or online) go through here: written in the same
 * transaction as the cached change they make, replayed in order when the host is
 * reachable, and never sent twice to effect. A replay after a send the app did not see
 * finish (it died, the answer was lost) must be a no-op, and each action is made so:
 * reports carry the row's idempotency key, which the host takes once per reporter;
 * events carry a record key chosen when queued, so a second write is refused and
 * found already there; an invite for someone with one outstanding answers that one
 * again; decisions and ejections refused on a replay are checked against the intended
 * end state (alreadyApplied). test/integration/core/outbox-replay.test.ts proves the
 * three that could double: an invite, an event and a report.
 */
/** An action to queue: `key` makes a replay of the same request recognisable (default: a fresh UUID). */
export interface NewAction {
  groupDid: string
  kind: string
  payload: unknown
  label: string
  key?: string
}
type ApplyToCache = (tx: Tx, outboxId: number) => Promise<void>

/** An action that reached an end (sent, or refused) since its group was last caught up. */
export interface SettledAction {
  id: number
  kind: string
  payload: Record<string, unknown>
  state: 'done' | 'conflict' | 'failed'
  /** What the host answered a sent action (absent when refused, or done by an earlier attempt). */
  answer?: unknown
}

export class Outbox {
  private replaying: Promise<void> | null = null
  private again = false
  /** Per group, what settled since the group's last catch-up took them (see takeSettled). */
  private readonly settled = new Map<string, SettledAction[]>()

  constructor(
    private readonly db: CacheDb,
    private readonly handlers: Record<string, ActionHandler>,
    private readonly onChange: () => void = () => {},
  ) {}

  /**
   * At start-up nothing is in flight: a row left 'sending' was cut short by the app
   * dying. It may or may not have reached the host; it is queued again, and the
   * handler's alreadyApplied check settles it on the next attempt.
   */
  async recoverInterrupted(): Promise<void> {
    await this.db.updateTable('outbox').set({ state: 'queued' }).where('state', '=', 'sending').execute()
  }

  /** Queues an action and applies its cached effect in one transaction. */
  async enqueue(action: NewAction, applyToCache?: ApplyToCache): Promise<number> {
    const [id] = await this.enqueueMany([{ ...action, applyToCache }])
    return id!
  }

  /**
   * Queues several actions, in order, with their cached effects, in one transaction:
   * all of them are acknowledged or none is (a bulk admit never half-lands in the cache).
   */
  async enqueueMany(actions: (NewAction & { applyToCache?: ApplyToCache })[]): Promise<number[]> {
    for (const action of actions) if (!this.handlers[action.kind]) throw new Error(`no handler for queued action ${action.kind}`)
    const now = new Date().toISOString()
    const ids = await this.db.transaction().execute(async (tx) => {
      const out: number[] = []
      for (const action of actions) {
        const row = await tx
          .insertInto('outbox')
          .values({
            idempotencyKey: action.key ?? randomUUID(),
            groupDid: action.groupDid,
            kind: action.kind,
            payload: JSON.stringify(action.payload),
            label: action.label,
            state: 'queued',
            attempts: 0,
            lastError: null,
            createdAt: now,
            updatedAt: now,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
        await action.applyToCache?.(tx, row.id)
        out.push(row.id)
      }
      return out
    })
    this.onChange()
    return ids
  }

  async list(opts: { includeDone?: boolean } = {}): Promise<OutboxRow[]> {
    let q = this.db.selectFrom('outbox').selectAll().orderBy('id')
    if (!opts.includeDone) q = q.where('state', '!=', 'done')
    const rows = await q.execute()
    return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown }))
  }

  /**
   * Sends everything queued, in order; stops at the first transient failure. Calls
   * while a pass runs ask for one more pass, so an action queued meanwhile is not left
   * waiting for the next sync.
   */
  replay(): Promise<void> {
    if (this.replaying) {
      this.again = true
      return this.replaying
    }
    this.replaying = (async () => {
      do {
        this.again = false
        if (!(await this.replayOnce())) break
      } while (this.again)
    })().finally(() => (this.replaying = null))
    return this.replaying
  }

  /**
   * The actions of a group that were sent or refused since the last call: a catch-up
   * applies their effect from what was sent and the change log instead of reading the
   * lists again (and reads again the lists of the refused ones).
   */
  takeSettled(groupDid: string): SettledAction[] {
    const out = this.settled.get(groupDid) ?? []
    this.settled.delete(groupDid)
    return out
  }

  /** Whether a group has settled actions waiting for its catch-up to take them. */
  hasSettled(groupDid: string): boolean {
    return (this.settled.get(groupDid)?.length ?? 0) > 0
  }

  /** Resolves when no pass is running (before closing the database). */
  async idle(): Promise<void> {
    await this.replaying?.catch(() => {})
  }

  /** One pass over the queue; false when it stopped at a failure worth waiting out. */
  private async replayOnce(): Promise<boolean> {
    const queued = await this.db.selectFrom('outbox').selectAll().where('state', '=', 'queued').orderBy('id').execute()
    for (const row of queued) {
      const handler = this.handlers[row.kind]!
      const payload = JSON.parse(row.payload) as unknown
      await this.mark(row.id, 'sending', null, row.attempts + 1)
      const settle = (state: SettledAction['state'], answer?: unknown) => {
        const list = this.settled.get(row.groupDid) ?? []
        list.push({ id: row.id, kind: row.kind, payload: (payload ?? {}) as Record<string, unknown>, state, ...(answer === undefined ? {} : { answer }) })
        this.settled.set(row.groupDid, list)
      }
      try {
        const answer = await handler.send(row.groupDid, payload, row.idempotencyKey)
        await this.mark(row.id, 'done', null)
        settle('done', answer)
      } catch (err) {
        if (retryLater(err)) {
          await this.mark(row.id, 'queued', plainReason(err))
          return false
        }
        const name = err instanceof XrpcCallError ? err.error : 'Error'
        const conflict = handler.conflicts[name]
        // An earlier attempt may have taken effect before we heard back (a crash, a
        // dropped connection): then this refusal is our own success, not a conflict.
        if (row.attempts > 0 && (await handler.alreadyApplied?.(row.groupDid, payload).catch(() => false))) {
          await this.mark(row.id, 'done', null)
          settle('done')
        } else if (conflict) {
          await this.mark(row.id, 'conflict', conflict)
          settle('conflict')
        } else {
          await this.mark(row.id, 'failed', plainReason(err))
          settle('failed')
        }
      }
    }
    return true
  }

  private async mark(id: number, state: OutboxState, lastError: string | null, attempts?: number) {
    await this.db
      .updateTable('outbox')
      .set({ state, lastError, updatedAt: new Date().toISOString(), ...(attempts === undefined ? {} : { attempts }) })
      .where('id', '=', id)
      .execute()
    this.onChange()
  }
}
