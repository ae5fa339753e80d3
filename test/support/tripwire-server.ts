import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A tiny HTTP server on 127.0.0.1 (or `address`, e.g. one of this machine's own
 * non-loopback addresses) that counts every TCP connection and request, to show that
 * something was (or was not) fetched. `/did.json` paths answer a DID document,
 * `/redirect?to=` redirects, `/big` sends a megabyte; everything else 200 "ok".
 */
export async function startTripwire(address = '127.0.0.1') {
  let connections = 0
  const paths: string[] = []
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '')
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end()
    } else if (url.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.alloc(1024 * 1024, 32))
    } else if (url.pathname.endsWith('did.json') || url.pathname.startsWith('/did:')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'did:web:tripwire', alsoKnownAs: [], verificationMethod: [], service: [] }))
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    }
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, address, resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    get connections() {
      return connections
    },
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
