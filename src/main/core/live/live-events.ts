import type { Change } from '../groups/catch-up.js'
import type { Frame } from './frames.js'

/** What a host's change stream says, as the app acts on it (lexicons/example/groups/subscribeChanges.json). */
export type LiveEvent =
  /** A change-log entry of one group, exactly as listChanges lists it, and the cursor just past it. */
  | { kind: 'change'; group: string; change: Change; cursor: string }
  /** The cursor is older than the log keeps: the group (or every group, when none is named) is read whole. */
  | { kind: 'outdated'; group: string | null }
  /** The host ends the connection, naming why and, when it can, where to resume. */
  | { kind: 'error'; error: string; message: string | null; cursor: string | null }

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0

/** The event a frame carries; null for a message type this app does not know (a newer host's). */
export function readEvent(frame: Frame): LiveEvent | null {
  if (frame.op === 'error') return { kind: 'error', error: frame.error, message: frame.message, cursor: str(frame.body.cursor) ? frame.body.cursor : null }
  const b = frame.body
  switch (frame.type) {
    case '#change': {
      if (!str(b.group) || !str(b.cursor) || !str(b.kind) || !str(b.createdAt) || typeof b.seq !== 'number' || !Number.isSafeInteger(b.seq)) return null
      const change: Change = { seq: b.seq, kind: b.kind, createdAt: b.createdAt, ...(str(b.subject) ? { subject: b.subject } : {}) }
      return { kind: 'change', group: b.group, change, cursor: b.cursor }
    }
    case '#info':
      return b.name === 'OutdatedCursor' ? { kind: 'outdated', group: str(b.group) ? b.group : null } : null
    default:
      return null
  }
}
