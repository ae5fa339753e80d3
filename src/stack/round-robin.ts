import net from 'node:net'
import events from 'node:events'

export interface RoundRobin {
  port: number
  /** Where connections go, in turn; replaced when host processes restart. */
  setTargets(ports: number[]): void
  close(): Promise<void>
}

/**
 * Several host processes behind one loopback address (issue 18): a TCP proxy handing each
 * new connection to the next process in turn, as a load balancer in front of a real
 * deployment would. Connections, not requests: a keep-alive client stays with one process,
 * which is what lets the tests see two processes disagree if any state were per process.
 */
export async function startRoundRobin(port: number): Promise<RoundRobin> {
  let targets: number[] = []
  let next = 0
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    if (targets.length === 0) return client.destroy()
    const target = targets[next++ % targets.length]!
    const upstream = net.connect(target, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      // Either side failing or closing ends the pair; a client sees a closed connection.
      s.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.setNoDelay(true)
    upstream.setNoDelay(true)
    client.pipe(upstream).pipe(client)
  })
  server.listen(port, '127.0.0.1')
  await events.once(server, 'listening')
  const bound = (server.address() as net.AddressInfo).port
  return {
    port: bound,
    setTargets(ports) {
      targets = [...ports]
    },
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
