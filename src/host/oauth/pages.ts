import type express from 'express'

export const STYLE_PATH = '/oauth/style.css'

/** Text into HTML (element content and quoted attribute values). */
export const esc = (value: unknown) =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/**
 * The sign-in pages' security headers: no script at all, styles from this host only,
 * never framed (clickjacking), forms posting only here (and, on the consent page, to the
 * app's redirect, where the answer sends the browser), nothing cached or referred.
 */
function pageHeaders(res: express.Response, formTargets: string[] = []): void {
  res.set({
    'Content-Security-Policy': [
      "default-src 'none'",
      `style-src 'self'`,
      `form-action 'self'${formTargets.map((t) => ` ${t}`).join('')}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  })
}

/**
 * The `form-action` source that lets a form's answer (a redirect) reach `uri`: its
 * origin for http and https, its scheme for a native app's custom scheme
 * (`com.example.app:` for `com.example.app:/callback`), which has no origin: `origin` is
 * "null" there, a source that matches nothing, so the browser would stop the answer.
 * The scheme is the app's own (its client ID's domain reversed, checked at PAR).
 */
export function formActionSource(uri: string): string {
  const url = new URL(uri)
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin
  // CSP's scheme-source grammar; URL parsing already holds schemes to it.
  if (!/^[a-z][a-z0-9+.-]*:$/.test(url.protocol)) throw new Error(`No form-action source for the scheme of ${uri}`)
  return url.protocol
}

/** A whole page: one `h1`, the main content, and the host's stylesheet (light and dark). */
function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${STYLE_PATH}">
${head}
</head>
<body>
<main>
<h1>${esc(title)}</h1>
${body}
</main>
</body>
</html>
`
}

export function sendPage(res: express.Response, status: number, title: string, body: string, opts: { formTargets?: string[]; head?: string } = {}): void {
  pageHeaders(res, opts.formTargets)
  res.status(status).type('html').send(page(title, body, opts.head))
}

/** A page that cannot go on (bad link, expired request): says why, and nothing else. */
export function sendProblem(res: express.Response, status: number, title: string, message: string): void {
  sendPage(res, status, title, `<p role="alert">${esc(message)}</p>`)
}

/**
 * Sends the browser on to another site after a form was posted. A redirect would be
 * checked against the form page's `form-action`, which cannot name a PDS not yet known;
 * a refresh from a page of its own is not, and the link serves who has refreshes off.
 */
export function sendOnwards(res: express.Response, url: string, what: string): void {
  sendPage(res, 200, 'Continue to sign in', `<p>Taking you to ${esc(what)}…</p><p><a href="${esc(url)}">Continue</a></p>`, {
    head: `<meta http-equiv="refresh" content="0;url=${esc(url)}">`,
  })
}

/** Light and dark by the system's choice; large targets; a visible focus ring. */
export const STYLESHEET = `:root { color-scheme: light dark; --bg: #fff; --fg: #1b1b1f; --muted: #55555f; --accent: #1d4ed8; --accent-fg: #fff; --border: #c8c8d0; --alert: #b42318; }
@media (prefers-color-scheme: dark) { :root { --bg: #16161a; --fg: #ececf1; --muted: #a9a9b5; --accent: #8ab4ff; --accent-fg: #0b1020; --border: #3a3a44; --alert: #ff8a80; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, sans-serif; }
main { max-width: 34rem; margin: 3rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.5rem; line-height: 1.25; }
h2 { font-size: 1.1rem; margin-top: 1.5rem; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input[type=text] { width: 100%; padding: .6rem .7rem; font: inherit; color: inherit; background: transparent; border: 1px solid var(--border); border-radius: .4rem; }
.hint { color: var(--muted); font-size: .9rem; }
.actions { display: flex; gap: .75rem; margin-top: 1.25rem; flex-wrap: wrap; }
button { font: inherit; padding: .6rem 1.1rem; border-radius: .4rem; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
[role=alert] { color: var(--alert); font-weight: 600; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
a { color: var(--accent); }
`
