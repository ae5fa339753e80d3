import { parseNotice, type Notice, type NoticeName } from '../../../shared/ipc/contract.js'
import { errorFields, log } from '../log/log.js'
import { NoticeTurn, type NoticeDetail, type NoticeInputs } from './notice-batches.js'

export type { GroupKey, NoticeDetail, NoticeInputs } from './notice-batches.js'

/**
 * The core's change notices, handed to whichever shell carries them to the window
 * (Electron's webContents.send, the loopback shell's event stream). What is emitted in
 * one turn of the event loop goes out as one notice per name, merged (a bulk decision
 * of thousands is a few notices, not thousands), and says what changed: each group's
 * summary and the lists that moved, the outbox rows as they now stand (notice-batches.ts).
 * Each payload is parsed through its contract schema first, so only what the contract
 * names leaves the core, as with channel outputs.
 */
export class NoticeHub {
  private readonly listeners = new Set<(notice: Notice) => void>()
  private turn: NoticeTurn | null = null
  /** The turns still going out, one after another, so notices keep their order. */
  private sending: Promise<void> = Promise.resolve()
  private detail: NoticeDetail | undefined

  subscribe(listener: (notice: Notice) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  /** How groups' and the outbox's notices learn what their summaries and rows now are (set once the groups are open). */
  describeWith(detail: NoticeDetail): void {
    this.detail = detail
  }

  emit<N extends NoticeName>(name: N, payload: NoticeInputs[N]): void {
    if (!this.turn) {
      const turn = (this.turn = new NoticeTurn())
      setImmediate(() => {
        this.turn = null
        this.sending = this.sending.then(() => this.send(turn))
      })
    }
    this.turn.add(name, payload)
  }

  /** Resolves once what was emitted before the call has gone out (tests; closing). */
  async delivered(): Promise<void> {
    if (this.turn) await new Promise((resolve) => setImmediate(resolve))
    await this.sending
  }

  private async send(turn: NoticeTurn): Promise<void> {
    try {
      for await (const raw of turn.notices(this.detail)) {
        const notice = parseNotice(raw)
        if (!notice) {
          log.error('notices', 'notice does not match the contract', { name: raw.name })
          continue
        }
        for (const listener of this.listeners) {
          try {
            listener(notice)
          } catch (err) {
            // One broken window must not stop the others hearing about changes.
            log.warn('notices', 'listener failed', errorFields(err))
          }
        }
      }
    } catch (err) {
      log.error('notices', 'notices could not be sent', errorFields(err))
    }
  }
}
