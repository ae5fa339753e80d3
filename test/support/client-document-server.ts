import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Client metadata documents on 127.0.0.1, standing in for apps that publish theirs: the
 * host takes `http://127.0.0.1:<port>/…` client IDs under `--allow-loopback-peers`, as
 * the local network runs it (an https client ID cannot point at the local network).
 * `publish(path, document)` serves a document whose `client_id` is its own URL unless
 * the document says otherwise; `requests(path)` counts what the host fetched.
 */
export async function startClientDocumentServer() {
  const documents = new Map<string, string>()
  const hits = new Map<string, number>()
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/'
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const body = documents.get(path)
    if (body === undefined) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/json' }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    /** Serves `document` at `path` (with `client_id` filled in) and returns the client ID. */
    publish(path: string, document: Record<string, unknown>): string {
      const clientId = `${origin}${path}`
      documents.set(path, JSON.stringify({ client_id: clientId, ...document }))
      return clientId
    },
    requests: (path: string) => hits.get(path) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
