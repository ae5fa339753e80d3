import type { IpcErrorData } from '../../../shared/ipc/envelope.js'
import { plainMessage } from '../../../shared/errors.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { errorFields, log } from '../log/log.js'

/** An error meant for people: its message is shown as is. */
export class UserFacingError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data?: Record<string, string>,
  ) {
    super(message)
    this.name = 'UserFacingError'
  }
}

/**
 * Turns anything thrown by a handler into what may cross IPC. Unexpected errors keep
 * their details in the main process's log and cross only as a generic message, so a
 * stack trace or a token inside an error message never reaches the renderer.
 */
export function toIpcError(err: unknown, logIt: (e: unknown) => void = (e) => log.error('core', 'call failed', errorFields(e, { stack: true }))): IpcErrorData {
  if (err instanceof UserFacingError) return { code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) }
  if (err instanceof XrpcCallError) {
    // A peer's refusal: people get the plain version, the log keeps error and message.
    logIt(err)
    return { code: err.error, message: plainMessage(err.error, busyOrFailing(err.status) ?? (err.serverMessage || undefined)) }
  }
  logIt(err)
  return { code: 'InternalError', message: 'Something went wrong in Convene. The details are in its log.' }
}

/**
 * A peer that is busy or failing for a moment, with no error name of its own to explain:
 * said as such (its own message is for its operators), since trying again may work.
 */
function busyOrFailing(status: number): string | undefined {
  if (status === 429) return 'The server asked Convene to slow down for a moment.'
  if (status >= 500) return `The server could not take it just now (error ${status}).`
  return undefined
}
