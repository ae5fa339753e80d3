/**
 * The part of `ws` (the WebSocket client the atproto packages use in Node) that the live
 * change stream uses. The package ships no types and @types/ws is not installed; this
 * names only what live/change-socket.ts calls, as `ws` 8 documents it.
 */
declare module 'ws' {
  import type { EventEmitter } from 'node:events'
  import type { ClientRequest, IncomingMessage } from 'node:http'

  interface ClientOptions {
    headers?: Record<string, string>
    /** Milliseconds to wait for the upgrade's answer. */
    handshakeTimeout?: number
    /** The largest message accepted, in bytes. */
    maxPayload?: number
    perMessageDeflate?: boolean
  }

  export class WebSocket extends EventEmitter {
    constructor(address: string | URL, options?: ClientOptions)
    readonly readyState: number
    ping(data?: Buffer): void
    close(code?: number, reason?: string): void
    terminate(): void
    on(event: 'open' | 'pong' | 'ping', listener: () => void): this
    on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): this
    on(event: 'close', listener: (code: number, reason: Buffer) => void): this
    on(event: 'error', listener: (err: Error) => void): this
    on(event: 'unexpected-response', listener: (req: ClientRequest, res: IncomingMessage) => void): this
    static readonly OPEN: number
  }
  export default WebSocket
}
