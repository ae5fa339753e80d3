/** The NSID a request is for, from its path (`/xrpc/<nsid>`). */
export function methodOf(path: string): string {
  return path.replace(/^\/xrpc\//, '').split(/[?/]/)[0] ?? ''
}
