import fs from 'node:fs'
import path from 'node:path'
import type http from 'node:http'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

/**
 * Built assets carry a content hash in their names, so they may be kept for good: the
 * browser then also keeps the compiled code of the scripts (V8's code cache), and a new
 * window does not compile the app again before its first screen. The page itself is
 * never kept (it names the current assets).
 */
const IMMUTABLE = { 'cache-control': 'public, max-age=31536000, immutable' }
const isHashedAsset = (root: string, file: string) => file.startsWith(path.join(root, 'assets') + path.sep) && /-[\w-]{8,}\.(js|css)$/.test(file)

/**
 * Serves the built renderer; unknown paths get index.html (the router decides). Any local
 * page or program can send this server a request, so an address that does not decode
 * (`/%E0%A4%A`) is answered 400, and a file that cannot be read ends that answer only.
 */
export function serveStatic(root: string, req: http.IncomingMessage, res: http.ServerResponse, headers: Record<string, string>) {
  let pathname: string
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Malformed address')
    return
  }
  let file = path.normalize(path.join(root, pathname))
  if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    file = path.join(root, 'index.html')
  }
  res.writeHead(200, { ...headers, ...(isHashedAsset(root, file) ? IMMUTABLE : {}), 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
  fs.createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res)
}
