import type { OutboxState } from '../cache/cache-db.js'
import { UserFacingError } from '../ipc/errors.js'

// What the person may do with one pending change (cancel, retry, dismiss) in each
// state, and the plain words when they may not: the window is not trusted to ask only
// what its buttons allow, and a row's state can move between a click and its handling.

const GONE = () => new UserFacingError('OutboxItemNotFound', 'That change is no longer in the list of pending changes: it may have just been sent, cancelled or dismissed.')

/** Undefined when a row in `state` can be cancelled; else why not. */
export function notCancellable(state: OutboxState | undefined): UserFacingError | undefined {
  if (state === undefined) return GONE()
  if (state === 'queued') return undefined
  if (state === 'sending') return new UserFacingError('AlreadySending', 'This change is being sent right now, so it can no longer be cancelled: it may already have reached the group host.')
  if (state === 'done') return new UserFacingError('AlreadySent', 'This change was already sent to the group host, so it cannot be cancelled.')
  return new UserFacingError('NotPending', 'This change was not applied, so there is nothing to cancel. Dismiss it instead.')
}

/** Undefined when a row in `state` can be sent again now; else why not. */
export function notRetryable(state: OutboxState | undefined): UserFacingError | undefined {
  if (state === undefined) return GONE()
  if (state === 'queued' || state === 'failed') return undefined
  if (state === 'sending') return new UserFacingError('AlreadySending', 'This change is being sent right now.')
  if (state === 'done') return new UserFacingError('AlreadySent', 'This change was already sent to the group host.')
  return new UserFacingError('Conflict', 'The group host refused this change because things changed meanwhile; sending it again would be refused too. Dismiss it, and make the change again if you still want it.')
}

/** Undefined when a row in `state` can be dismissed; else why not. */
export function notDismissable(state: OutboxState | undefined): UserFacingError | undefined {
  if (state === undefined) return GONE()
  if (state === 'failed' || state === 'conflict') return undefined
  return new UserFacingError('StillPending', 'This change is still waiting to be sent. Cancel it instead if you no longer want it.')
}
