import type { SyncGroupState, SyncStatus } from '../../../shared/ipc/views.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { toIpcError, UserFacingError } from '../ipc/errors.js'

type Phase = SyncGroupState['phase']
const ACTIVE: ReadonlySet<Phase> = new Set(['waiting', 'checking', 'reading', 'saving'])

/**
 * Where each group's sync stands, for the window to show progress on long syncs (a
 * group of tens of thousands reads hundreds of pages) and, afterwards, which groups
 * could not be synced and why. The last state of every group is kept until its next sync.
 */
/** Progress notices at most this often while items are being read (each phase change goes at once). */
const READ_NOTICE_MS = 250

export class SyncProgress {
  private readonly states = new Map<string, SyncGroupState>()
  private readTimer: ReturnType<typeof setTimeout> | null = null

  /** `onChange` hears every move, so the window follows a sync without asking. */
  constructor(private readonly onChange: (status: GroupsSyncStatus) => void = () => {}) {}

  private changed() {
    if (this.readTimer) clearTimeout(this.readTimer)
    this.readTimer = null
    this.onChange(this.status())
  }

  /** Lists the groups a pass is about to sync, so the window can say "2 of 5". */
  plan(groups: { accountDid: string; groupDid: string }[]) {
    for (const g of groups) this.set(g.accountDid, g.groupDid, { phase: 'waiting', itemsRead: 0, error: null, finishedAt: null })
    this.changed()
  }

  /**
   * Runs one group's sync under watch: `run` gets a reporter for the phases and the
   * items read so far. Its result or error passes through unchanged.
   */
  async track<T>(accountDid: string, groupDid: string, run: (report: SyncReporter) => Promise<T>): Promise<T> {
    this.set(accountDid, groupDid, { phase: 'checking', itemsRead: 0, error: null, finishedAt: null })
    this.changed()
    const report: SyncReporter = {
      phase: (phase) => this.update(accountDid, groupDid, { phase }),
      read: (items) => {
        const s = this.states.get(key(accountDid, groupDid))
        if (s) s.itemsRead += items
        if (!this.readTimer) {
          this.readTimer = setTimeout(() => this.changed(), READ_NOTICE_MS)
          this.readTimer.unref?.()
        }
      },
      unchanged: () => this.update(accountDid, groupDid, { phase: 'unchanged', finishedAt: new Date().toISOString() }),
    }
    try {
      const result = await run(report)
      const s = this.states.get(key(accountDid, groupDid))
      if (s && s.phase !== 'unchanged') this.update(accountDid, groupDid, { phase: 'done', finishedAt: new Date().toISOString() })
      return result
    } catch (err) {
      this.update(accountDid, groupDid, { phase: 'failed', error: syncFailure(err), finishedAt: new Date().toISOString() })
      throw err
    }
  }

  /** Whether the group's last sync failed (and none has begun since). */
  failed(accountDid: string, groupDid: string): boolean {
    return this.states.get(key(accountDid, groupDid))?.phase === 'failed'
  }

  /** Stops following a group that was taken off an account's list. */
  forget(accountDid: string, groupDid: string) {
    this.states.delete(key(accountDid, groupDid))
    this.changed()
  }

  status(): GroupsSyncStatus {
    const groups = [...this.states.values()].map((s) => ({ ...s }))
    return { running: groups.some((g) => ACTIVE.has(g.phase)), groups }
  }

  private set(accountDid: string, groupDid: string, s: Omit<SyncGroupState, 'accountDid' | 'groupDid'>) {
    this.states.set(key(accountDid, groupDid), { accountDid, groupDid, ...s })
  }

  private update(accountDid: string, groupDid: string, patch: Partial<SyncGroupState>) {
    const s = this.states.get(key(accountDid, groupDid))
    if (s) Object.assign(s, patch)
    this.changed()
  }
}

/** The groups' part of the sync status (the live connections' part is live/'s). */
export type GroupsSyncStatus = Omit<SyncStatus, 'live'>

export interface SyncReporter {
  phase(phase: 'reading' | 'saving'): void
  read(items: number): void
  /** The host's change log had not moved: nothing to read. */
  unchanged(): void
}

const key = (accountDid: string, groupDid: string) => `${accountDid} ${groupDid}`

/** Why a group could not be synced, in plain words (what was last seen stays shown). */
function syncFailure(err: unknown): string {
  const code = err instanceof XrpcCallError ? err.error : err instanceof UserFacingError ? err.code : null
  if (code === 'HostUnreachable') return 'Could not reach the group’s host. Showing what was last seen.'
  if (code === 'HostNotAnswering') return 'The group’s host is not answering. Showing what was last seen.'
  return toIpcError(err, () => {}).message
}
