import type { Change } from '../sync/catch-up.js'
import { validateChange } from '@node/lexicon/types/example/groups/defs.js'
import type { Frame } from './frames.js'

/** What a host's change stream says, as the app acts on it (lexicons/example/groups/subscribeChanges.json). */
export type LiveEvent =
  /** A change-log entry of one group, exactly as listChanges lists it, and the cursor just past it. */
  | { kind: 'change'; group: string; change: Change; cursor: string }
  /** A change of this group that does not match the lexicon: the group is caught up from its change log instead. */
  | { kind: 'unreadable'; group: string }
  /** The cursor is older than the log keeps: every group is read whole, and the stream carries on. */
  | { kind: 'outdated' }
  /** The host ends the connection, naming why and, for a slow reader, where to resume. */
  | { kind: 'error'; error: string; message: string | null; cursor: string | null }

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0

/**
 * The event a frame carries; null for a message this app does not know (a newer host's
 * type or info).
 */
export function readEvent(frame: Frame): LiveEvent | null {
  if (frame.op === 'error') return { kind: 'error', error: frame.error, message: frame.message, cursor: text(frame.body.cursor) ? frame.body.cursor : null }
  const b = frame.body
  switch (frame.type) {
    case '#change': {
      const change = validateChange(b.change)
      if (!text(b.group)) return null
      if (!text(b.cursor) || !change.success) return { kind: 'unreadable', group: b.group }
      const { seq, kind, subject, createdAt } = change.value
      return { kind: 'change', group: b.group, change: { seq, kind, createdAt, ...(subject !== undefined ? { subject } : {}) }, cursor: b.cursor }
    }
    case '#info':
      return b.name === 'OutdatedCursor' ? { kind: 'outdated' } : null
    default:
      return null
  }
}
