import type http from 'node:http'
import events from 'node:events'

/**
 * Listens on one address, loopback by default. The PLC and PDS servers' own `start()`
 * listen on every interface; the local network must not be reachable from outside.
 */
export async function listenOn(
  server: http.Server,
  port: number,
  host = '127.0.0.1',
): Promise<http.Server> {
  server.listen(port, host)
  await events.once(server, 'listening')
  return server
}

/** Closes a server, dropping idle keep-alive connections so close() does not hang. */
export async function closeServer(server: http.Server | undefined): Promise<void> {
  if (!server?.listening) return
  await new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
