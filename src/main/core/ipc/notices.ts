import { parseNotice, type notices, type Notice, type NoticeName } from '../../../shared/ipc/contract.js'
import type { z } from 'zod'
import { errorFields, log } from '../log/log.js'

type Payload<N extends NoticeName> = z.input<(typeof notices)[N]>

/**
 * The core's change notices, handed to whichever shell carries them to the window
 * (Electron's webContents.send, the loopback shell's event stream). Each payload is
 * parsed through its contract schema first, so only what the contract names leaves
 * the core, as with channel outputs.
 */
export class NoticeHub {
  private readonly listeners = new Set<(notice: Notice) => void>()

  subscribe(listener: (notice: Notice) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  emit<N extends NoticeName>(name: N, payload: Payload<N>): void {
    const notice = parseNotice({ name, payload })
    if (!notice) {
      log.error('notices', 'notice does not match the contract', { name })
      return
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
}
