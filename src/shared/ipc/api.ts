import { CHANNELS, type Channel, type ChannelInput, type ChannelOutput } from './contract.js'
import { ConveneError, type IpcEnvelope } from './envelope.js'

/** The API the renderer sees: one async method per contract channel. */
export type ConveneApi = {
  [C in Channel]: (input: ChannelInput<C>) => Promise<ChannelOutput<C>>
}

/** Sends one call to the main process and returns its envelope. */
export type Transport = (channel: Channel, input: unknown) => Promise<IpcEnvelope<unknown>>

/**
 * Builds the renderer-facing API from the contract's channel list and a transport
 * (Electron IPC in the preload, HTTP in the loopback shell).
 */
export function createApi(transport: Transport): ConveneApi {
  const api = {} as Record<Channel, (input: unknown) => Promise<unknown>>
  for (const channel of CHANNELS) {
    api[channel] = async (input: unknown) => {
      const envelope = await transport(channel, input ?? {})
      if (!envelope.ok) throw new ConveneError(envelope.error)
      return envelope.value
    }
  }
  return Object.freeze(api) as ConveneApi
}
