/**
 * Completes an OAuth authorization the app started, on the real PDS, by the requests its
 * own sign-in and consent pages make (the authorization page's load, then
 * `@atproto/oauth-provider`'s sign-in and consent API with its device cookies and CSRF
 * token, then the redirect), without drawing the pages: the same password check, consent,
 * code and redirect to the app, in a fraction of the time a browser takes to load and run
 * the pages' React app (about 0.3 s against 3.5 s per sign-in).
 *
 * For tests where signing in is the way in, not the subject. Sign-in itself, on the
 * pages a person sees, stays tested on them: `completeOnPdsPages` (browser-sign-in.ts),
 * `signInThroughPds` (e2e/support/fixtures.ts), e2e/accounts.spec.ts.
 *
 * Returns the address the PDS sent the browser back to (the app's redirect), once the app
 * has answered it.
 */
import http from 'node:http'
import https from 'node:https'

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
}

/** One request as a browser would make it: Node's fetch replaces the `sec-fetch-*` headers a browser sends, which the provider checks. */
function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith('https:') ? https : http).request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

export async function authorizeThroughPdsApi(authorizeUrl: string, username: string, password: string, choice: 'Authorize' | 'Deny access' = 'Authorize'): Promise<string> {
  const issuer = new URL(authorizeUrl).origin
  const cookies = new Map<string, string>()
  const keepCookies = (res: Answer) => {
    for (const line of res.headers['set-cookie'] ?? []) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim())
    }
  }
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  // What the browser sends when a person opens a page, and when the page calls its API.
  const navigation = (site: string) => ({ 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': site, 'user-agent': 'Mozilla/5.0 (Convene tests)' })

  const page = await request(authorizeUrl, { headers: navigation('cross-site') })
  keepCookies(page)
  const pageText = page.text
  if (page.status !== 200) throw new Error(`the PDS's authorization page answered ${page.status}: ${/"error_description":"[^"]*"|Invalid[^<"]*|[a-z_]+ (is|are) (required|invalid)[^<"]*/i.exec(pageText)?.[0] ?? pageText.slice(-500)}`)

  const api = async (endpoint: string, body: unknown, bearer?: string) => {
    const res = await request(`${issuer}/@atproto/oauth-provider/~api${endpoint}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'sec-fetch-mode': 'same-origin',
        'sec-fetch-site': 'same-origin',
        origin: issuer,
        referer: authorizeUrl,
        'x-csrf-token': cookies.get('csrf-token') ?? '',
        cookie: cookieHeader(),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify(body),
    })
    keepCookies(res)
    const json = JSON.parse(res.text) as Record<string, unknown>
    if (res.status !== 200) throw new Error(`the PDS's ${endpoint} answered ${res.status}: ${JSON.stringify(json)}`)
    return json
  }

  const signedIn = (await api('/sign-in', { locale: 'en', username, password })) as { account: { did: string }; ephemeralToken?: string }
  const { url } = (choice === 'Authorize' ? await api('/consent', { did: signedIn.account.did }, signedIn.ephemeralToken) : await api('/reject', {})) as { url: string }

  // The PDS's redirect page sends the browser back to the app; the app's answer ends the sign-in.
  const redirect = await request(url, { headers: { ...navigation('same-origin'), referer: authorizeUrl, cookie: cookieHeader() } })
  const back = redirect.headers.location
  if (!back) throw new Error(`the PDS's redirect answered ${redirect.status} without a Location`)
  const answered = await request(back)
  if (answered.status !== 200) throw new Error(`the app's redirect address answered ${answered.status}`)
  return back
}
