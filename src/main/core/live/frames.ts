import { decodeAll } from '@atproto/lex-cbor'

/**
 * One frame of an XRPC subscription, as atproto's event streams send them: a CBOR header
 * (`op` 1 and the message type `t`, or `op` -1 for an error) followed by a CBOR body.
 */
export type Frame =
  | { op: 'message'; type: string | null; body: Record<string, unknown> }
  | { op: 'error'; error: string; message: string | null; body: Record<string, unknown> }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Decodes a frame; throws on bytes that are not one (the connection is then dropped). */
export function decodeFrame(bytes: Uint8Array): Frame {
  const [header, body, ...rest] = decodeAll(bytes)
  if (rest.length || !isObject(header) || !isObject(body)) throw new Error('not a subscription frame')
  if (header.op === 1) return { op: 'message', type: typeof header.t === 'string' ? header.t : null, body }
  if (header.op === -1 && typeof body.error === 'string') {
    return { op: 'error', error: body.error, message: typeof body.message === 'string' ? body.message : null, body }
  }
  throw new Error('unknown subscription frame')
}
