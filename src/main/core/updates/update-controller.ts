import type { UpdateStatus } from '../../../shared/ipc/contract.js'
import { systemClock, type Clock, type Updater } from './updater.js'

export const CHECK_EVERY_MS = 6 * 60 * 60 * 1000
/** While a restart waits for the outbox, how often to look again. */
export const RECHECK_PENDING_MS = 5_000

/** What the loopback shell (and a development run) answers: it has nothing to update. */
export const UPDATES_UNAVAILABLE: UpdateStatus = {
  state: 'unavailable',
  version: null,
  pendingChanges: 0,
  canRestart: false,
  message: 'Updates come with the installed app.',
}

const stillWaiting = (n: number) =>
  n === 1
    ? '1 change is still waiting to be sent. Convene will restart to update once it has gone out.'
    : `${n} changes are still waiting to be sent. Convene will restart to update once they have gone out.`

/**
 * When to look for updates, when a restart may happen and what to tell the person.
 * Checks at start and every six hours; a found version downloads in the background;
 * once downloaded the person is offered "Restart to update". The restart never happens
 * while changes wait in the outbox: it waits (and says so) until they have been sent,
 * because a restart mid-send would leave the person unsure whether their action went out.
 */
export class UpdateController {
  private current: UpdateStatus = { state: 'idle', version: null, pendingChanges: 0, canRestart: false, message: 'Convene is up to date.' }
  private timers: { cancel(): void }[] = []
  private stopped = false

  constructor(
    private readonly opts: {
      updater: Updater
      /** Changes queued or being sent, across every account. */
      pendingChanges: () => Promise<number>
      clock?: Clock
      log?: (message: string) => void
    },
  ) {
    opts.updater.onEvent((event) => {
      switch (event.kind) {
        case 'available':
          this.set({ state: 'downloading', version: event.version, message: `Downloading Convene ${event.version}…` })
          this.opts.updater.downloadUpdate().catch((err: unknown) => this.failed(err as Error))
          break
        case 'none':
          if (this.current.state === 'checking') this.set({ state: 'idle', message: 'Convene is up to date.' })
          break
        case 'downloaded':
          // A download finished while a restart already waits keeps waiting.
          if (this.current.state !== 'waiting') {
            this.set({ state: 'ready', version: event.version, canRestart: true, message: `Convene ${event.version} is ready. Restart to update.` })
          }
          break
        case 'error':
          this.failed(event.error)
      }
    })
  }

  private get clock() {
    return this.opts.clock ?? systemClock
  }

  private set(next: Partial<UpdateStatus>) {
    this.current = { ...this.current, ...next }
  }

  private failed(err: Error) {
    this.opts.log?.(`[updates] ${err.message}`)
    // An update already downloaded stays on offer; a failed later check does not take it away.
    if (this.current.state === 'ready' || this.current.state === 'waiting') return
    this.set({ state: 'error', canRestart: false, message: 'Convene could not check for updates. It will try again later.' })
  }

  status(): UpdateStatus {
    return { ...this.current }
  }

  /** Checks now, then every six hours until stopped. */
  start() {
    const tick = () => {
      if (this.stopped) return
      void this.check()
      this.timers.push(this.clock.setTimer(tick, CHECK_EVERY_MS))
    }
    tick()
  }

  stop() {
    this.stopped = true
    for (const t of this.timers) t.cancel()
    this.timers = []
  }

  async check() {
    // Once a version is downloading or downloaded there is nothing more to ask the feed.
    if (['downloading', 'ready', 'waiting', 'restarting'].includes(this.current.state)) return
    this.set({ state: 'checking', message: 'Checking for updates…' })
    try {
      await this.opts.updater.checkForUpdates()
    } catch (err) {
      this.failed(err as Error)
    }
  }

  /** The person asked to restart: now if nothing waits to be sent, otherwise once it has been. */
  async restartToUpdate(): Promise<UpdateStatus> {
    if (this.current.state !== 'ready' && this.current.state !== 'waiting') return this.status()
    const pending = await this.opts.pendingChanges().catch(() => Infinity)
    if (this.stopped) return this.status()
    if (pending > 0) {
      const count = Number.isFinite(pending) ? pending : 0
      this.set({
        state: 'waiting',
        pendingChanges: count,
        canRestart: false,
        message: Number.isFinite(pending)
          ? stillWaiting(count)
          : 'Convene could not tell whether changes are waiting to be sent; it will try again before restarting.',
      })
      this.timers.push(this.clock.setTimer(() => void this.restartToUpdate(), RECHECK_PENDING_MS))
      return this.status()
    }
    this.set({ state: 'restarting', pendingChanges: 0, canRestart: false, message: 'Restarting to update…' })
    this.opts.updater.quitAndInstall()
    return this.status()
  }
}
