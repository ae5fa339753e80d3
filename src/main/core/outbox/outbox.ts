import { randomUUID } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { z } from 'zod'
import type { CacheDb, CacheSchema, OutboxState } from '../cache/cache-db.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { errorFields, log } from '../log/log.js'
import { gaveUpWords, MAX_FAILURES, nextAttemptAt } from './backoff.js'
import { plainReason, retryLater, waitsForPerson } from './send-failures.js'
import { parseStored, UNREADABLE_ACTION } from './queued-payloads.js'
import { notCancellable, notDismissable, notRetryable } from './item-controls.js'

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
  /** When the next try is due after a transient failure, or when a hold ends (ISO); null: at the next pass. */
  nextAttemptAt: string | null
  /**
   * While the action is held back so the person can undo it (queued with a hold, never
   * tried): when the hold ends and it is sent (ISO). Null otherwise.
   */
  heldUntil: string | null
}

/** How one kind of queued action is sent, and what its refusals mean. */
export interface ActionHandler {
  /** The stored payload's schema: a row is parsed with it before it is sent (queued-payloads.ts). */
  schema: z.ZodTypeAny
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
  /** Takes back the cached effect of an action cancelled before it was sent (item-controls.ts). */
  undoCache?(tx: Transaction<CacheSchema>, groupDid: string, payload: unknown, outboxId: number): Promise<void>
}

type Tx = Transaction<CacheSchema>

/** An action to queue: `key` makes a replay of the same request recognisable (default: a fresh UUID). */
export interface NewAction {
  groupDid: string
  kind: string
  payload: unknown
  label: string
  key?: string
  /**
   * Keeps the action back for this long before it is sent (an Undo window): stored as
   * the row's nextAttemptAt, so a restart keeps it and "Retry now" ends it; cancelling
   * it meanwhile means it never reaches the host.
   */
  holdMs?: number
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

/** Time as the outbox sees it; tests pass a fake one. */
export interface OutboxClock {
  now(): number
  /** In [0, 1): where in its window each wait falls. */
  random(): number
  /** Calls `run` after `ms`; the timer must not keep the process alive. */
  setTimeout(run: () => void, ms: number): { cancel(): void }
}

const realClock: OutboxClock = {
  now: () => Date.now(),
  random: () => Math.random(),
  setTimeout(run, ms) {
    const timer = setTimeout(run, ms)
    timer.unref?.()
    return { cancel: () => clearTimeout(timer) }
  },
}

/** One group's queue while it is being sent. */
interface Lane {
  done: Promise<void>
  /** Asked for again while running: read the queue once more before stopping. */
  again: boolean
}

/**
 * Actions taken while offline (or online) go through here: written in the same
 * transaction as the cached change they make, then sent in order, one queue per group.
 * Groups never wait for each other: an unreachable host, or a group whose action keeps
 * failing, holds up only that group's later actions. A transient failure (offline, a
 * host down or failing, a short rate limit) waits out a back-off stored with the row
 * (backoff.ts), so a restart keeps it; after MAX_FAILURES of them the action is failed
 * with plain words and kept for the person. A stored payload is parsed with its kind's
 * schema before it is sent; one this version cannot read is failed, never sent as is.
 *
 * Never sent twice to effect: a replay after a send the app did not see finish (it
 * died, the answer was lost) must be a no-op, and each action is made so: reports carry
 * the row's idempotency key, which the host takes once per reporter, and so do
 * moderators' events (a bulk resolve replayed after the host died mid-way resolves each
 * subject once: test/integration/core/bulk-resolve-replay.test.ts); events carry a
 * record key chosen when queued, so a second write is refused and found already there;
 * an invite for someone with one outstanding answers that one again; decisions and
 * ejections refused on a replay are checked against the intended end state
 * (alreadyApplied). test/integration/core/outbox-replay.test.ts proves the three that
 * could double: an invite, an event and a report.
 */
export class Outbox {
  private readonly lanes = new Map<string, Lane>()
  /** Per group, the timer that sends it again when its back-off ends. */
  private readonly wakes = new Map<string, { at: number; cancel(): void }>()
  private closed = false
  /** Per group, what settled since the group's last catch-up took them (see takeSettled). */
  private readonly settled = new Map<string, SettledAction[]>()

  constructor(
    private readonly db: CacheDb,
    private readonly handlers: Record<string, ActionHandler>,
    /** Hears which rows changed (the window is told them as they now stand). */
    private readonly onChange: (ids?: number[]) => void = () => {},
    private readonly clock: OutboxClock = realClock,
  ) {}

  /**
   * At start-up nothing is in flight: a row left 'sending' was cut short by the app
   * dying. It may or may not have reached the host; it is queued again (its back-off
   * kept), and the handler's alreadyApplied check settles it on the next attempt.
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
   * A payload its kind's schema would not read back is refused here, not queued to fail.
   */
  async enqueueMany(actions: (NewAction & { applyToCache?: ApplyToCache })[]): Promise<number[]> {
    for (const action of actions) {
      const handler = this.handlerOf(action.kind)
      if (!handler) throw new Error(`no handler for queued action ${action.kind}`)
      if (!parseStored(handler.schema, JSON.stringify(action.payload)).ok) throw new Error(`a ${action.kind} action that could not be read back was not queued`)
    }
    const now = new Date(this.clock.now()).toISOString()
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
            failures: 0,
            nextAttemptAt: action.holdMs && action.holdMs > 0 ? new Date(this.clock.now() + action.holdMs).toISOString() : null,
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
    this.onChange(ids)
    return ids
  }

  /** The rows not yet sent (with those sent too, if asked), or only the rows `ids` names. */
  async list(opts: { includeDone?: boolean; ids?: number[] } = {}): Promise<OutboxRow[]> {
    let q = this.db.selectFrom('outbox').selectAll().orderBy('id')
    if (!opts.includeDone) q = q.where('state', '!=', 'done')
    if (opts.ids) q = q.where('id', 'in', opts.ids.length ? opts.ids : [-1])
    const rows = await q.execute()
    return rows.map(({ failures, updatedAt: _, ...r }) => ({ ...r, payload: jsonOrNull(r.payload), heldUntil: isHeld({ ...r, failures }) ? r.nextAttemptAt : null }))
  }

  /**
   * Sends what is due: one group's queue, or every group's (each on its own, at once).
   * Resolves when those passes end. A call while a group's pass runs asks it for one
   * more look, so an action queued meanwhile is not left waiting for the next sync. A
   * group waiting out a back-off is sent again when it ends, with nobody asking.
   */
  async replay(groupDid?: string): Promise<void> {
    if (groupDid !== undefined) return this.lane(groupDid)
    const queued = await this.db.selectFrom('outbox').select('groupDid').distinct().where('state', '=', 'queued').execute()
    const groups = new Set([...queued.map((r) => r.groupDid), ...this.lanes.keys()])
    await Promise.all([...groups].map((g) => this.lane(g)))
  }

  /**
   * The person asked ("Sync now"): what waits out a back-off is due now, for the next
   * replay. Its count of failures is kept, so the cap still comes. An action held for
   * Undo (never tried) keeps its hold: syncing is not a choice to give up the Undo.
   */
  async endBackOffs(): Promise<void> {
    for (const wake of this.wakes.values()) wake.cancel()
    this.wakes.clear()
    await this.db
      .updateTable('outbox')
      .set({ nextAttemptAt: null })
      .where('state', '=', 'queued')
      .where('nextAttemptAt', 'is not', null)
      .where((eb) => eb.or([eb('failures', '>', 0), eb('attempts', '>', 0)]))
      .execute()
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

  /**
   * The person cancels an action not yet sent: its row goes and its cached effect is
   * taken back, in one transaction. Only a queued row (waiting, or backed off): one
   * being sent may already have reached the host. Answers the row's group.
   */
  async cancel(id: number): Promise<{ groupDid: string }> {
    const row = await this.row(id)
    const refused = notCancellable(row?.state)
    if (refused || !row) throw refused
    const gone = await this.db.transaction().execute(async (tx) => {
      // Only while still queued: the send may have started since it was read.
      const del = await tx.deleteFrom('outbox').where('id', '=', id).where('state', '=', 'queued').executeTakeFirst()
      if (Number(del.numDeletedRows) === 0) return false
      const read = parseStored(this.handlerOf(row.kind)?.schema, row.payload)
      if (read.ok) await this.handlerOf(row.kind)?.undoCache?.(tx, row.groupDid, read.payload, id)
      return true
    })
    if (!gone) throw notCancellable('sending')!
    this.onChange([id])
    return { groupDid: row.groupDid }
  }

  /**
   * The person asks to send a backed-off, held or failed action now: its wait ends (a failed
   * one is queued again with a fresh count of tries) and its group's queue is sent.
   * Resolves once queued again; the send goes on in the background (see `replay`).
   */
  async retry(id: number): Promise<{ groupDid: string }> {
    const row = await this.row(id)
    const refused = notRetryable(row?.state)
    if (refused || !row) throw refused
    await this.db
      .updateTable('outbox')
      .set({ state: 'queued', nextAttemptAt: null, ...(row.state === 'failed' ? { failures: 0, lastError: null } : {}), updatedAt: new Date(this.clock.now()).toISOString() })
      .where('id', '=', id)
      .where('state', '=', row.state)
      .execute()
    this.wakes.get(row.groupDid)?.cancel()
    this.wakes.delete(row.groupDid)
    this.onChange([id])
    return { groupDid: row.groupDid }
  }

  /**
   * The person is done with an action that was not applied (refused, or given up on):
   * its row goes for good. Its cached effect went when it was refused (its list was read again).
   */
  async dismiss(id: number): Promise<void> {
    const row = await this.row(id)
    const refused = notDismissable(row?.state)
    if (refused) throw refused
    await this.db.deleteFrom('outbox').where('id', '=', id).where('state', 'in', ['failed', 'conflict']).execute()
    this.onChange([id])
  }

  private row(id: number) {
    return this.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /**
   * The actions of a group the host took since its last catch-up took them: their cached
   * rows are still marked with them, waiting for that catch-up to settle them.
   */
  answeredUntaken(groupDid: string): number[] {
    return (this.settled.get(groupDid) ?? []).flatMap((a) => (a.state === 'done' ? [a.id] : []))
  }

  /** Whether a group has settled actions waiting for its catch-up to take them. */
  hasSettled(groupDid: string): boolean {
    return (this.settled.get(groupDid)?.length ?? 0) > 0
  }

  /** Whether the group's host answered one of those actions (took it, or refused it), so it is reachable. */
  hostAnswered(groupDid: string): boolean {
    return (this.settled.get(groupDid) ?? []).some((a) => a.state === 'done' || a.state === 'conflict')
  }

  /** Stops sending (before closing the database): no more waits, and the passes under way end. */
  async close(): Promise<void> {
    this.closed = true
    for (const wake of this.wakes.values()) wake.cancel()
    this.wakes.clear()
    await Promise.allSettled([...this.lanes.values()].map((l) => l.done))
  }

  private lane(groupDid: string): Promise<void> {
    const running = this.lanes.get(groupDid)
    if (running) {
      running.again = true
      return running.done
    }
    if (this.closed) return Promise.resolve()
    const lane: Lane = { done: Promise.resolve(), again: false }
    lane.done = (async () => {
      do {
        lane.again = false
        if (!(await this.drain(groupDid))) break
      } while (lane.again && !this.closed)
    })().finally(() => this.lanes.delete(groupDid))
    this.lanes.set(groupDid, lane)
    return lane.done
  }

  /** Sends a group's queue in order; false when it stopped at something to wait out. */
  private async drain(groupDid: string): Promise<boolean> {
    while (!this.closed) {
      const row = await this.db.selectFrom('outbox').selectAll().where('groupDid', '=', groupDid).where('state', '=', 'queued').orderBy('id').limit(1).executeTakeFirst()
      if (!row) return true
      const due = row.nextAttemptAt ? Date.parse(row.nextAttemptAt) : 0
      if (due > this.clock.now()) {
        this.wakeAt(groupDid, due)
        return false
      }
      if (!(await this.sendOne(row))) return false
    }
    return false
  }

  /** Sends one row; false when the group's queue must wait (back-off, or for the person). */
  private async sendOne(row: CacheSchema['outbox']): Promise<boolean> {
    const handler = this.handlerOf(row.kind)
    const read = parseStored(handler?.schema, row.payload)
    const settle = (state: SettledAction['state'], payload: unknown, answer?: unknown) => {
      const list = this.settled.get(row.groupDid) ?? []
      list.push({ id: row.id, kind: row.kind, payload: (payload ?? {}) as Record<string, unknown>, state, ...(answer === undefined ? {} : { answer }) })
      this.settled.set(row.groupDid, list)
    }
    if (!handler || !read.ok) {
      // Saved by another version (an older shape, a kind this one does not know): sending
      // it as is could do something the person never asked for.
      log.warn('outbox', 'a stored action could not be read', { id: row.id, kind: row.kind })
      await this.mark(row.id, { state: 'failed', lastError: UNREADABLE_ACTION })
      settle('failed', null)
      return true
    }
    const payload = read.payload
    // Only if still queued: the person may have cancelled it since it was read. Why it
    // waited stays shown while it is tried again (a host not answering is still named).
    const started = await this.db
      .updateTable('outbox')
      .set({ state: 'sending', attempts: row.attempts + 1, updatedAt: new Date(this.clock.now()).toISOString() })
      .where('id', '=', row.id)
      .where('state', '=', 'queued')
      .executeTakeFirst()
    if (Number(started.numUpdatedRows) === 0) return true
    this.onChange([row.id])
    try {
      const answer = await handler.send(row.groupDid, payload, row.idempotencyKey)
      await this.mark(row.id, { state: 'done', lastError: null, nextAttemptAt: null })
      settle('done', payload, answer)
      return true
    } catch (err) {
      if (waitsForPerson(err)) {
        await this.mark(row.id, { state: 'queued', lastError: plainReason(err), nextAttemptAt: null })
        return false
      }
      if (retryLater(err)) {
        const failures = row.failures + 1
        if (failures >= MAX_FAILURES) {
          log.warn('outbox', 'stopped trying', { id: row.id, kind: row.kind, failures, ...errorFields(err) })
          await this.mark(row.id, { state: 'failed', lastError: gaveUpWords(err, failures), failures, nextAttemptAt: null })
          settle('failed', payload)
          return true
        }
        const at = nextAttemptAt(failures, err, this.clock.now(), () => this.clock.random())
        await this.mark(row.id, { state: 'queued', lastError: plainReason(err), failures, nextAttemptAt: new Date(at).toISOString() })
        this.wakeAt(row.groupDid, at)
        return false
      }
      const name = err instanceof XrpcCallError ? err.error : 'Error'
      const conflict = handler.conflicts[name]
      // An earlier attempt may have taken effect before we heard back (a crash, a
      // dropped connection): then this refusal is our own success, not a conflict.
      if (row.attempts > 0 && (await handler.alreadyApplied?.(row.groupDid, payload).catch(() => false))) {
        await this.mark(row.id, { state: 'done', lastError: null })
        settle('done', payload)
      } else if (conflict) {
        await this.mark(row.id, { state: 'conflict', lastError: conflict })
        settle('conflict', payload)
      } else {
        await this.mark(row.id, { state: 'failed', lastError: plainReason(err) })
        settle('failed', payload)
      }
      return true
    }
  }

  /** Sends a group's queue again at `at` (one timer per group: the latest wait wins). */
  private wakeAt(groupDid: string, at: number) {
    if (this.closed) return
    const current = this.wakes.get(groupDid)
    if (current?.at === at) return
    current?.cancel()
    const timer = this.clock.setTimeout(
      () => {
        this.wakes.delete(groupDid)
        this.lane(groupDid).catch((err: unknown) => log.error('outbox', 'replay failed', errorFields(err, { stack: true })))
      },
      Math.max(0, at - this.clock.now()),
    )
    this.wakes.set(groupDid, { at, cancel: () => timer.cancel() })
  }

  private handlerOf(kind: string): ActionHandler | undefined {
    return Object.hasOwn(this.handlers, kind) ? this.handlers[kind] : undefined
  }

  private async mark(id: number, change: { state: OutboxState; lastError: string | null; attempts?: number; failures?: number; nextAttemptAt?: string | null }) {
    await this.db
      .updateTable('outbox')
      .set({ ...change, updatedAt: new Date(this.clock.now()).toISOString() })
      .where('id', '=', id)
      .execute()
    this.onChange([id])
  }
}

/** Held for Undo: queued with a due time, never tried and never failed (a back-off has failed at least once). */
function isHeld(row: { state: OutboxState; attempts: number; failures: number; nextAttemptAt: string | null }): boolean {
  return row.state === 'queued' && row.attempts === 0 && row.failures === 0 && row.nextAttemptAt !== null
}

/** A stored payload for the queue view (who the action is about); null when it is not JSON. */
function jsonOrNull(json: string): unknown {
  try {
    return JSON.parse(json) as unknown
  } catch {
    return null
  }
}
