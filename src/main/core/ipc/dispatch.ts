import { contract, isChannel, type Channel, type ParsedInput, type ChannelOutput } from '../../../shared/ipc/contract.js'
import type { IpcEnvelope } from '../../../shared/ipc/envelope.js'
import { toIpcError } from './errors.js'
import { errorFields, log } from '../log/log.js'

/** The core's implementation of every contract channel. */
export type Handlers = {
  [C in Channel]: (input: ParsedInput<C>) => Promise<ChannelOutput<C>>
}

/**
 * The single entry for calls from the renderer, whichever shell carried them: checks
 * the channel exists, validates input against the contract (the renderer is not
 * trusted), runs the handler, and passes the result through the output schema so
 * only the fields the contract names cross back.
 */
export async function dispatch(handlers: Handlers, channel: unknown, rawInput: unknown): Promise<IpcEnvelope<unknown>> {
  if (!isChannel(channel)) {
    return { ok: false, error: { code: 'UnknownChannel', message: `There is no "${String(channel)}" call.` } }
  }
  const spec = contract[channel]
  const input = spec.input.safeParse(rawInput ?? {})
  if (!input.success) {
    return {
      ok: false,
      error: { code: 'InvalidInput', message: `The ${channel} call got input it cannot use: ${input.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}` },
    }
  }
  callLogs.get(handlers)?.record(channel, input.data)
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>
    const value = spec.output.parse(await handler(input.data))
    return { ok: true, value }
  } catch (err) {
    return { ok: false, error: toIpcError(err, (e) => log.error('core', `${channel} failed`, errorFields(e, { stack: true }))) }
  }
}

/** The calls that reached one core, with their input (for a list channel, the page asked for). */
export interface CallLog {
  record(channel: Channel, input: unknown): void
  /** Every input `channel` was called with since the log began, oldest first. */
  inputs(channel: Channel): unknown[]
  /** How many calls each channel has had since the log began (what an action costs the window). */
  counts(): Partial<Record<Channel, number>>
}

const callLogs = new WeakMap<Handlers, CallLog>()

/**
 * For tests: starts (or returns) the log of calls dispatched to this core's handlers,
 * whichever shell carried them. Counting HTTP requests sees nothing in the Electron
 * shell, where calls are IPC, so a check that only the rows in view cross reads this.
 */
export function callLog(handlers: Handlers): CallLog {
  let found = callLogs.get(handlers)
  if (!found) {
    const byChannel = new Map<Channel, unknown[]>()
    found = {
      record: (channel, input) => void (byChannel.get(channel) ?? byChannel.set(channel, []).get(channel)!).push(input),
      inputs: (channel) => [...(byChannel.get(channel) ?? [])],
      counts: () => Object.fromEntries([...byChannel].map(([channel, inputs]) => [channel, inputs.length])),
    }
    callLogs.set(handlers, found)
  }
  return found
}
