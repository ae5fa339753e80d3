/**
 * What crosses the IPC boundary for every call: a result or a plain error. Errors are
 * carried as data because Electron's `invoke` flattens thrown errors to a message.
 */
export interface IpcErrorData {
  /** A stable name: a spec error (`RequestNotFound`) or one of the app's own. */
  code: string
  /** Plain language, for people. */
  message: string
  /** Facts the renderer can act on, e.g. `{ scope }` to ask for at sign-in. */
  data?: Record<string, string>
}

export type IpcEnvelope<T> = { ok: true; value: T } | { ok: false; error: IpcErrorData }

/** Thrown in the renderer when a call fails; `code` tells what kind of failure. */
export class ConveneError extends Error {
  readonly code: string
  readonly data: Record<string, string>
  constructor(error: IpcErrorData) {
    super(error.message)
    this.name = 'ConveneError'
    this.code = error.code
    this.data = error.data ?? {}
  }
}
