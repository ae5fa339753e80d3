import http from 'node:http'
import { describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../../support/local-network.js'

const net = useLocalNetwork()

/** GET /.well-known/atproto-did as a resolver asks it: the handle in the Host header. */
function wellKnownDid(handle: string): Promise<{ status: number; type: string | undefined; body: string }> {
  const url = new URL('/.well-known/atproto-did', net.stack.host.url)
  return new Promise((resolve, reject) => {
    const req = http.get({ hostname: url.hostname, port: url.port, path: url.pathname, headers: { host: handle } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }))
    })
    req.on('error', reject)
  })
}

const create = (handle: string) =>
  net.as('outsider').call<{ did: string; handle: string; error?: string; message?: string }>('example.groups.createGroup', { body: { handle, joinPolicy: 'open' } })

describe('group handles under the host’s handle domains', () => {
  it('refuses a handle outside them, e.g. something.bsky.social: InvalidRequest saying which fit', async () => {
    const res = await create('something.bsky.social')
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(res.body.message).toBe(
      'This host gives groups handles ending in .groups.test (one name in front, such as book-club.groups.test); something.bsky.social is not one of them',
    )
    // Nothing was made: the host does not vouch for it either.
    const resolved = await xrpc(net.stack.host.url, 'com.atproto.identity.resolveHandle', { params: { handle: 'something.bsky.social' } })
    expect(resolved).toMatchObject({ status: 400, body: { error: 'HandleNotFound' } })
  })

  it('refuses more than one name in front of the domain, and the bare domain', async () => {
    for (const handle of ['a.b.groups.test', 'groups.test', 'x.groups.test.evil.com']) {
      expect((await create(handle)).body.error, handle).toBe('InvalidRequest')
    }
  })

  // x.groups.test, made by whichever test needs it first, so each runs on its own.
  let makingX: ReturnType<typeof create> | undefined
  const groupX = () => (makingX ??= create('X.groups.test'))
  it('accepts x.groups.test', async () => {
    const res = await groupX()
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.handle).toBe('x.groups.test')
  })

  it('answers /.well-known/atproto-did for the group’s handle with its DID as text/plain', async () => {
    const created = (await groupX()).body
    const res = await wellKnownDid('x.groups.test')
    expect(res.status).toBe(200)
    expect(res.type).toMatch(/^text\/plain/)
    expect(res.body).toBe(created.did)
    // As a resolver would send it, with a port or in another case.
    expect((await wellKnownDid('X.Groups.Test:443')).body).toBe(created.did)
    expect((await wellKnownDid('open.groups.test')).body).toBe(net.group('open').did)
  })

  it('answers 404 for a handle it does not host', async () => {
    for (const host of ['nobody.groups.test', 'something.bsky.social', '127.0.0.1']) {
      const res = await wellKnownDid(host)
      expect(res.status, host).toBe(404)
      expect(res.body, host).not.toMatch(/did:/)
      expect(JSON.parse(res.body), host).toMatchObject({ error: 'NotFound' })
    }
  })

  it('resolveHandle vouches for hosted handles only', async () => {
    const created = (await groupX()).body
    const ok = await xrpc(net.stack.host.url, 'com.atproto.identity.resolveHandle', { params: { handle: 'x.groups.test' } })
    expect(ok).toMatchObject({ status: 200, body: { did: created.did } })
    const other = await xrpc(net.stack.host.url, 'com.atproto.identity.resolveHandle', { params: { handle: 'nobody.groups.test' } })
    expect(other).toMatchObject({ status: 400, body: { error: 'HandleNotFound' } })
  })
})
