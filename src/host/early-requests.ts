import type http from 'node:http'

/** The most requests held while the host starts, and how long each may wait: past either, a 503 with Retry-After. */
const MOST_HELD = 100
const HELD_MS = 10_000

/**
 * The host binds its port before it can serve (it must learn the port to know its own
 * address), then opens storage and builds its routes. A request that reached the port in
 * between had no one to answer it, and was never answered: a client that connected
 * during a restart waited out its own time limit (15 s in Convene) for nothing. Such a
 * request now waits, bounded, and is served once the host is ready; one the host cannot
 * take in time is told to come back (503, Retry-After), never left hanging.
 */
export function holdEarlyRequests(server: http.Server, limits: { most?: number; waitMs?: number } = {}) {
  const most = limits.most ?? MOST_HELD
  const held: { req: http.IncomingMessage; res: http.ServerResponse; timer: NodeJS.Timeout }[] = []
  let serve: http.RequestListener | null = null
  const refuse = (res: http.ServerResponse) => {
    if (res.headersSent || res.writableEnded) return
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' })
    res.end(JSON.stringify({ error: 'ServiceUnavailable', message: 'The group host is starting; try again in a moment' }))
  }
  server.on('request', (req, res) => {
    if (serve) return serve(req, res)
    if (held.length >= most) return refuse(res)
    const entry = { req, res, timer: setTimeout(() => {
      held.splice(held.indexOf(entry), 1)
      refuse(res)
    }, limits.waitMs ?? HELD_MS) }
    held.push(entry)
  })
  return {
    /** From now on every request goes to `listener`, those held first, in the order they came. */
    serveWith(listener: http.RequestListener) {
      serve = listener
      for (const { req, res, timer } of held.splice(0)) {
        clearTimeout(timer)
        listener(req, res)
      }
    },
    /** The host will not start: those held are told so at once. */
    refuseHeld() {
      for (const { res, timer } of held.splice(0)) {
        clearTimeout(timer)
        refuse(res)
      }
    },
  }
}
