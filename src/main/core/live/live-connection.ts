import type { Change } from '../sync/catch-up.js'
import { UserFacingError } from '../ipc/errors.js'
import { errorFields, log } from '../log/log.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { reconnectDelayMs } from './backoff.js'
import { openChangeSocket, type ChangeSocket, type SocketEnd } from './change-socket.js'
import { decodeFrame } from './frames.js'
import { readEvent, type LiveEvent } from './live-events.js'

export const SUBSCRIBE_CHANGES = 'example.groups.subscribeChanges'

/** Where one account's live connection to one host stands (shown in the window). */
export interface LiveState {
  /**
   * connecting (the first time); live; down (lost, trying again at `retryAt`); polling (the
   * host has no change stream, or this sign-in may not use it: checked every 30 s instead).
   */
  state: 'connecting' | 'live' | 'down' | 'polling'
  /** Since when it has been in this state. */
  since: string
  /** Why it is down or polling, in plain words. */
  detail: string | null
  retryAt: string | null
}

export interface LiveConnectionDeps {
  hostUrl: string
  /** A service-auth token for the stream, with its expiry (seconds since the epoch). */
  token(): Promise<{ token: string; exp: number }>
  /** Forgets a token the host refused. */
  dropToken(): void
  /** Where the stream left off when the app last ran (the cursor after the last change applied), or null. */
  readCursor(): Promise<string | null>
  writeCursor(cursor: string | null): Promise<void>
  /** Applies one group's changes, in order; `cursor` is where its log stands after them. Handles its own failures. */
  apply(group: string, changes: Change[], cursor: string): Promise<void>
  /** A group's change could not be read: it is caught up from its change log instead. */
  behind(group: string): void
  /** The host no longer keeps the changes since our cursor: every group here is read whole. */
  outdated(): Promise<void>
  /**
   * The connection is open. Without a cursor the stream starts with what happens next, so
   * what happened before (since the groups' last catch-up) is caught up from the change log.
   */
  opened(resumed: boolean): void
  onState(state: LiveState): void
  openSocket?: typeof openChangeSocket
  random?: () => number
  /** The wait before the next try after `attempt` failed ones (default: backoff.ts, with `random` for its jitter). */
  retryDelayMs?: (attempt: number) => number
}

/** A connection open this long counts as having worked: the next drop starts the backoff again. */
const STABLE_MS = 10_000
/** Renew the token this long before it expires. */
const RENEW_BEFORE_S = 90
/** A host without the stream (or a sign-in without its scope) is asked again this often. */
const RETRY_UNSUPPORTED_MS = 60 * 60_000
/** Changes applied per step: a burst is taken a batch at a time, each group's changes together. */
const BATCH = 500
/** More than this waiting to be applied: stop reading, apply, and resume from the cursor. */
const MAX_QUEUED = 5_000

/**
 * One account's live connection to one group host (example.groups.subscribeChanges):
 * opened with a service-auth token minted through the account's session, from the cursor
 * of the last change applied; every change applied, in order, through the catch-up, and
 * only then its cursor kept; reconnected with backoff and jitter when lost, resuming from
 * that cursor; renewed before its token expires by a second connection that takes over
 * once open, so nothing falls between the two. A host that answers the upgrade with "no
 * such method" is left to the 30-second catch-up.
 */
export class LiveConnection {
  /** The connection changes are read from. */
  private socket: ChangeSocket | null = null
  /** The connection a renewal is replacing, read from until the new one is open. */
  private retiring: ChangeSocket | null = null
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private renewTimer: ReturnType<typeof setTimeout> | null = null
  private attempt = 0
  /** Waiting out our own back-off (not a wait the host asked for). */
  private backingOff = false
  private closed = false
  private readonly queue: LiveEvent[] = []
  private draining: Promise<void> | null = null
  private openedAt = 0
  /** Where to resume: the cursor after the last change applied (undefined: not read from the cache yet). */
  private resumeFrom: string | null | undefined
  /** The newest entry seen per group: a renewal's two connections send some entries twice. */
  private readonly seen = new Map<string, number>()
  /** What the host's error frame said before it closed the connection. */
  private lastError: string | null = null
  private current: LiveState

  constructor(private readonly deps: LiveConnectionDeps) {
    this.current = { state: 'connecting', since: new Date().toISOString(), detail: null, retryAt: null }
  }

  get state(): LiveState {
    return this.current
  }

  start(): void {
    void this.connect()
  }

  /**
   * The host is known to answer again (another call to it just went through): if this
   * connection is waiting out a back-off, it tries now, and the back-off starts over.
   */
  retryNow(): void {
    // Not when the host itself said how long to wait (a 429's Retry-After).
    if (this.closed || this.current.state !== 'down' || !this.retryTimer || !this.backingOff) return
    this.attempt = 0
    void this.connect()
  }

  /** Closes for good (signed out, no group here any more, quitting); changes under way finish. */
  async close(): Promise<void> {
    this.closed = true
    this.clearTimers()
    for (const s of [this.socket, this.retiring]) s?.close()
    this.socket = this.retiring = null
    await this.draining
  }

  private backoffMs(): number {
    return this.deps.retryDelayMs ? this.deps.retryDelayMs(this.attempt) : reconnectDelayMs(this.attempt, this.deps.random)
  }

  private setState(state: LiveState['state'], detail: string | null = null, retryAt: number | null = null) {
    const since = this.current.state === state ? this.current.since : new Date().toISOString()
    this.current = { state, since, detail, retryAt: retryAt === null ? null : new Date(retryAt).toISOString() }
    this.deps.onState(this.current)
  }

  private clearTimers() {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    if (this.renewTimer) clearTimeout(this.renewTimer)
    this.retryTimer = this.renewTimer = null
  }

  /** Opens a connection; `renewing` keeps the current one until the new one is open. */
  private async connect(renewing = false): Promise<void> {
    this.clearTimers()
    if (this.closed) return
    let minted: { token: string; exp: number }
    try {
      minted = await this.deps.token()
    } catch (err) {
      if (renewing) this.dropCurrent()
      this.mintFailed(err)
      return
    }
    // Changes already received are applied first, so the cursor is where they end.
    if (!renewing) await this.draining
    if (this.resumeFrom === undefined) this.resumeFrom = await this.deps.readCursor()
    if (this.closed) return
    const cursor = this.resumeFrom
    const url = new URL(`/xrpc/${SUBSCRIBE_CHANGES}`, this.deps.hostUrl)
    if (cursor) url.searchParams.set('cursor', cursor)
    this.lastError = null
    if (renewing) this.retiring = this.socket
    const socket: ChangeSocket = (this.deps.openSocket ?? openChangeSocket)({
      url,
      token: minted.token,
      onOpen: () => {
        this.openedAt = Date.now()
        const old = this.retiring
        this.retiring = null
        old?.close()
        this.setState('live')
        // A renewal overlapped the old connection: nothing fell between.
        if (!renewing) this.deps.opened(cursor !== null)
      },
      onFrame: (bytes) => this.onFrame(bytes, socket),
      onEnd: (end) => {
        if (this.socket !== socket) return
        this.socket = null
        if (renewing && this.retiring) this.dropCurrent()
        this.ended(end, cursor !== null)
      },
    })
    this.socket = socket
    const renewInMs = (minted.exp - RENEW_BEFORE_S) * 1000 - Date.now()
    this.renewTimer = setTimeout(() => void this.connect(true), Math.max(renewInMs, 5_000))
    this.renewTimer.unref?.()
  }

  /** A renewal failed: the old connection goes too, and the usual reconnecting takes over. */
  private dropCurrent() {
    const old = this.retiring ?? this.socket
    this.retiring = this.socket = null
    old?.close()
  }

  private onFrame(bytes: Uint8Array, from: ChangeSocket) {
    if (from !== this.socket && from !== this.retiring) return
    let event: LiveEvent | null
    try {
      event = readEvent(decodeFrame(bytes))
    } catch (err) {
      log.warn('live', 'frame not understood; reconnecting', { host: this.deps.hostUrl, ...errorFields(err) })
      if (from === this.socket) this.socket = null
      from.close()
      this.ended({ kind: 'dropped', opened: true, reason: 'the host sent something Convene does not understand' }, true)
      return
    }
    if (!event) return
    if (event.kind === 'error') {
      this.lastError = event.message ? `${event.error}: ${event.message}` : event.error
      // A cursor the host does not take: start again without it; each group is caught up
      // from its own change-log cursor (read whole where the host lost that too).
      if (event.error === 'FutureCursor' || event.error === 'InvalidRequest') this.forgetCursor()
      return
    }
    if (event.kind === 'unreadable') {
      log.warn('live', 'a pushed change does not match the lexicon; catching the group up instead', { host: this.deps.hostUrl, groupDid: event.group })
      this.deps.behind(event.group)
      return
    }
    if (event.kind === 'change') {
      if (event.change.seq <= (this.seen.get(event.group) ?? 0)) return
      this.seen.set(event.group, event.change.seq)
      this.attempt = 0
    }
    this.queue.push(event)
    if (this.queue.length > MAX_QUEUED && from === this.socket) {
      // Falling behind: stop reading, apply what came, and resume from where that ends.
      this.socket = null
      from.close()
      this.ended({ kind: 'dropped', opened: true, reason: 'Convene fell behind applying changes' }, true)
    }
    this.drain()
  }

  private forgetCursor() {
    this.resumeFrom = null
    void this.deps.writeCursor(null)
  }

  /** Applies what came, in order: a batch at a time, each group's changes in one catch-up. */
  private drain() {
    if (this.draining) return
    this.draining = (async () => {
      while (this.queue.length) {
        const batch = this.queue.splice(0, BATCH)
        if (batch.some((e) => e.kind === 'outdated')) await this.deps.outdated()
        const byGroup = new Map<string, { changes: Change[]; cursor: string }>()
        let last: string | null = null
        for (const e of batch) {
          if (e.kind !== 'change') continue
          const g = byGroup.get(e.group) ?? { changes: [], cursor: e.cursor }
          g.changes.push(e.change)
          g.cursor = e.cursor
          byGroup.set(e.group, g)
          last = e.cursor
        }
        for (const [group, g] of byGroup) await this.deps.apply(group, g.changes, g.cursor)
        if (last) {
          this.resumeFrom = last
          await this.deps.writeCursor(last)
        }
      }
    })()
      .catch((err: unknown) => log.error('live', 'applying pushed changes failed', { host: this.deps.hostUrl, ...errorFields(err) }))
      .finally(() => (this.draining = null))
  }

  private ended(end: SocketEnd, sentCursor: boolean) {
    if (this.closed || end.kind === 'closed') return
    if (this.openedAt && Date.now() - this.openedAt >= STABLE_MS) this.attempt = 0
    this.openedAt = 0
    if (end.kind === 'refused') {
      if (end.status === 404 || end.status === 501 || end.error === 'MethodNotImplemented') {
        log.info('live', 'host has no change stream; checking it every 30 s', { host: this.deps.hostUrl, status: end.status })
        this.retryIn(RETRY_UNSUPPORTED_MS, 'polling', 'This group host does not send live updates: Convene checks it for changes every 30 seconds.')
        return
      }
      if (end.status === 401) this.deps.dropToken()
      if (end.status === 400 && sentCursor) this.forgetCursor()
      const why =
        end.status === 429 || end.status === 503
          ? 'the host is limiting connections just now'
          : end.status === 401 || end.status === 403
            ? `the host did not accept the sign-in (${end.error ?? end.status})`
            : `the host answered ${end.status}${end.error ? ` ${end.error}` : ''}`
      // Too many streams (429), or a host past its total (503): it says how long to wait.
      const wait = (end.status === 429 || end.status === 503) && end.retryAfterS ? Math.max(end.retryAfterS * 1000, this.backoffMs()) : null
      this.retryLater(why, wait)
      return
    }
    this.retryLater(this.lastError ? `the host ended it (${this.lastError})` : end.reason)
  }

  private mintFailed(err: unknown) {
    if (this.closed) return
    if (err instanceof UserFacingError && err.code === 'ScopeMissingError') {
      this.retryIn(RETRY_UNSUPPORTED_MS, 'polling', 'Your sign-in does not yet allow live updates from this host: Convene checks it every 30 seconds. Sign in again to allow them.')
      return
    }
    if (err instanceof UserFacingError && err.code === 'SignInRequired') {
      this.retryIn(RETRY_UNSUPPORTED_MS, 'down', err.message)
      return
    }
    const offline = err instanceof XrpcCallError && err.error === 'HostUnreachable'
    if (!offline) log.warn('live', 'could not get a token for the change stream', { host: this.deps.hostUrl, ...errorFields(err) })
    this.retryLater(offline ? 'your server could not be reached (offline?)' : `your server did not sign the request (${(err as Error).message})`)
  }

  /** Down: says so, and tries again after the next backoff step. */
  private retryLater(reason: string, waitMs: number | null = null) {
    const wait = waitMs ?? this.backoffMs()
    this.attempt++
    this.retryIn(wait, 'down', `Lost the live connection: ${reason}.`)
    this.backingOff = waitMs === null
  }

  private retryIn(ms: number, state: 'down' | 'polling', detail: string) {
    if (this.closed) return
    this.clearTimers()
    this.backingOff = false
    this.setState(state, detail, Date.now() + ms)
    this.retryTimer = setTimeout(() => void this.connect(), ms)
    this.retryTimer.unref?.()
  }
}
