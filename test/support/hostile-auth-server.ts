import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface HostileBehaviour {
  /** The PAR endpoint its metadata names (default: its own `/par`). */
  parEndpoint?: string
  /** The token endpoint its metadata names (default: its own `/token`). */
  tokenEndpoint?: string
  /** Its own `/par` answers 307 to this address (default: 201, as a PDS would). */
  parRedirect?: string
  /** Its own `/token` answers 307 to this address (default: 400 invalid_grant). */
  tokenRedirect?: string
  /** Its authorization-server metadata never answers. */
  stall?: boolean
  /** Its authorization-server metadata is an endless body. */
  endless?: boolean
  /** Its authorization-server metadata is JSON that is not OAuth server metadata. */
  nonsense?: boolean
}

/**
 * A person's PDS and authorization server on 127.0.0.1 that works against whoever signs
 * in there: its metadata may send the sign-in elsewhere (`parEndpoint`,
 * `tokenEndpoint`), its endpoints may redirect, stall, never stop talking or talk
 * nonsense. Sound
 * otherwise, so a client gets as far as the hostile step. Records the paths asked and
 * the `state` of each pushed request (what the client's callback carries).
 */
export async function startHostileAuthServer(behaviour: HostileBehaviour = {}) {
  const paths: string[] = []
  const states: string[] = []
  let origin = ''
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    paths.push(path)
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (path === '/.well-known/oauth-protected-resource') {
      return json(200, { resource: origin, authorization_servers: [origin] })
    }
    if (path === '/.well-known/oauth-authorization-server') {
      if (behaviour.stall) return
      if (behaviour.endless) return endlessBody(res)
      if (behaviour.nonsense) return json(200, { issuer: 42, hello: 'world' })
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: behaviour.tokenEndpoint ?? `${origin}/token`,
        pushed_authorization_request_endpoint: behaviour.parEndpoint ?? `${origin}/par`,
        require_pushed_authorization_requests: true,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        dpop_signing_alg_values_supported: ['ES256'],
        scopes_supported: ['atproto'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
      })
    }
    if (path === '/par' || path === '/token') {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString('utf8')))
      req.on('end', () => {
        const state = new URLSearchParams(body).get('state')
        if (state) states.push(state)
        const redirect = path === '/par' ? behaviour.parRedirect : behaviour.tokenRedirect
        if (redirect) return void res.writeHead(307, { location: redirect }).end()
        if (path === '/par') return json(201, { request_uri: 'urn:ietf:params:oauth:request_uri:hostile', expires_in: 60 })
        json(400, { error: 'invalid_grant', error_description: 'no' })
      })
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: origin,
    paths,
    states,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** JSON that never ends: spaces, as fast as the reader takes them, until it hangs up. */
function endlessBody(res: http.ServerResponse) {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.write('{"issuer":')
  const chunk = Buffer.alloc(64 * 1024, 32)
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump)
  }
  pump()
}
