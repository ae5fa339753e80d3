import { CHANNELS, type Channel, type ChannelInput, type ChannelOutput, type Notice } from './contract.js'
import { ConveneError, type IpcEnvelope } from './envelope.js'

/** The API the renderer sees: one async method per contract channel, and the core's notices. */
export type ConveneApi = {
  [C in Channel]: (input: ChannelInput<C>) => Promise<ChannelOutput<C>>
} & {
  /** Calls `listener` with every notice the core pushes (see `notices` in the contract); returns the unsubscribe. */
  onNotice(listener: (notice: Notice) => void): () => void
}

/** How a shell delivers the core's notices (Electron IPC events, or the loopback event stream). */
export type NoticeSource = (listener: (notice: Notice) => void) => () => void

/** Sends one call to the main process and returns its envelope. */
export type Transport = (channel: Channel, input: unknown) => Promise<IpcEnvelope<unknown>>

/**
 * Builds the renderer-facing API from the contract's channel list and a transport
 * (Electron IPC in the preload, HTTP in the loopback shell).
 */
export function createApi(transport: Transport, noticeSource: NoticeSource = () => () => {}): ConveneApi {
  const api = {} as Record<Channel, (input: unknown) => Promise<unknown>> & Pick<ConveneApi, 'onNotice'>
  for (const channel of CHANNELS) {
    api[channel] = async (input: unknown) => {
      const envelope = await transport(channel, input ?? {})
      if (!envelope.ok) throw new ConveneError(envelope.error)
      return envelope.value
    }
  }
  api.onNotice = fanOut(noticeSource)
  return Object.freeze(api) as ConveneApi
}

/**
 * One subscription to the shell's source however many stores listen (each loopback
 * subscription is a long-lived HTTP stream, and a browser allows few per origin),
 * opened with the first listener and closed with the last.
 */
function fanOut(source: NoticeSource): ConveneApi['onNotice'] {
  const listeners = new Set<(notice: Notice) => void>()
  let close: (() => void) | null = null
  return (listener) => {
    // Wrapped, so one listener subscribing twice gets two deliveries and two unsubscribes.
    const entry = (notice: Notice) => listener(notice)
    listeners.add(entry)
    close ??= source((notice) => {
      for (const l of [...listeners]) l(notice)
    })
    return () => {
      listeners.delete(entry)
      if (listeners.size === 0) {
        close?.()
        close = null
      }
    }
  }
}
