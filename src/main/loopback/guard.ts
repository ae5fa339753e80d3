import { timingSafeEqual } from 'node:crypto'
import type http from 'node:http'

/**
 * Who may call the loopback shell's IPC routes: a page served by this shell (Origin
 * and Host are exactly its own, which also defeats DNS rebinding) that holds this
 * launch's secret. Any other local program or web page is refused.
 */
export function checkIpcRequest(
  req: http.IncomingMessage,
  expected: { origin: string; secret: string },
): { ok: true } | { ok: false; status: number; message: string } {
  if (req.headers.origin !== expected.origin) {
    return { ok: false, status: 403, message: 'Calls are accepted only from the Convene page this shell serves.' }
  }
  if (`http://${req.headers.host}` !== expected.origin) {
    return { ok: false, status: 403, message: 'Unexpected Host header.' }
  }
  const auth = req.headers.authorization ?? ''
  const given = Buffer.from(auth.startsWith('Bearer ') ? auth.slice(7) : '')
  const want = Buffer.from(expected.secret)
  if (given.length !== want.length || !timingSafeEqual(given, want)) {
    return { ok: false, status: 401, message: 'Missing or wrong launch secret: open the address this launch printed.' }
  }
  if (!req.headers['content-type']?.startsWith('application/json')) {
    return { ok: false, status: 415, message: 'IPC calls are JSON.' }
  }
  return { ok: true }
}
