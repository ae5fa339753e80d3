import http from 'node:http'
import type { AddressInfo } from 'node:net'

const DONE_PAGE = `<!doctype html><meta charset="utf-8"><title>Convene</title>
<body style="font-family:system-ui;margin:4rem auto;max-width:32rem;text-align:center">
<h1>You can close this tab</h1><p>Convene has your sign-in. Go back to the app to continue.</p></body>`

/**
 * The RFC 8252 loopback redirect: a one-shot HTTP server on 127.0.0.1 that receives
 * the authorization response at /callback and then closes.
 */
export async function openLoopbackRedirect(): Promise<{
  port: number
  /** Resolves with the callback's query parameters. */
  params: Promise<URLSearchParams>
  close(): void
}> {
  let resolve!: (p: URLSearchParams) => void
  const params = new Promise<URLSearchParams>((r) => (resolve = r))
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname !== '/callback') {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    res.end(DONE_PAGE)
    resolve(url.searchParams)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    port: (server.address() as AddressInfo).port,
    params,
    close: () => {
      server.close()
      server.closeAllConnections()
    },
  }
}
