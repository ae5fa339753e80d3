import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

/**
 * Requests the host refuses while reading them, before any method runs (found by the
 * fuzz suite, test/fuzz): they used to answer with library names (`SyntaxError`,
 * `Error`, `PayloadTooLargeError`, `UnsupportedMediaTypeError`, `InvalidQueryParameter`)
 * where peers expect the spec's `InvalidRequest` or the XRPC names.
 */
async function post(body: string | Buffer, headers: Record<string, string> = {}) {
  const token = await as('outsider').serviceAuth('example.groups.requestJoin')
  const res = await fetch(`${net.stack.host.url}/xrpc/example.groups.requestJoin`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body,
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('refusals made while reading a request use the names peers know', () => {
  it('the same request, well formed, is accepted (so the refusals below are about the form)', async () => {
    const res = await post(JSON.stringify({ group: net.group('approval').did }))
    expect(res).toMatchObject({ status: 200, body: { status: 'pending' } })
  })

  it('a body that is not JSON is 400 InvalidRequest', async () => {
    for (const body of ['{"group":', ' ', "{'group': 1}", 'null']) {
      const res = await post(body)
      expect(res.status, body).toBe(400)
      expect(res.body, body).toEqual({ error: 'InvalidRequest', message: expect.any(String) })
    }
  })

  it('a body that is not in the Content-Encoding it claims is 400 InvalidRequest', async () => {
    const res = await post(JSON.stringify({ group: net.group('approval').did }), { 'content-encoding': 'gzip' })
    expect(res).toEqual({ status: 400, body: { error: 'InvalidRequest', message: expect.stringContaining('could not be read') } })
  })

  it('a Content-Encoding the host does not read is 415 UnsupportedMediaType', async () => {
    const res = await post(JSON.stringify({ group: net.group('approval').did }), { 'content-encoding': 'br' })
    expect(res).toEqual({ status: 415, body: { error: 'UnsupportedMediaType', message: expect.stringContaining('br') } })
  })

  it('a body over the size limit is 413 PayloadTooLarge', async () => {
    const res = await post(JSON.stringify({ group: net.group('approval').did, message: 'x'.repeat(300 * 1024) }))
    expect(res).toEqual({ status: 413, body: { error: 'PayloadTooLarge', message: expect.any(String) } })
  })

  it('a query parameter named __proto__ is 400 InvalidRequest', async () => {
    const token = await as('member').serviceAuth('example.groups.getGroup')
    const url = `${net.stack.host.url}/xrpc/example.groups.getGroup?group=${net.group('open').did}&__proto__=x`
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: 'InvalidRequest', message: expect.stringContaining('__proto__') })
  })
})

describe('paths the host does not serve', () => {
  it('answer 404 with the JSON error body, not an HTML page', async () => {
    for (const path of ['/', '/foo', '//xrpc/example.groups.getGroup', '/index.html']) {
      const res = await fetch(`${net.stack.host.url}${path}`)
      expect(res.status, path).toBe(404)
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/)
      expect(await res.json(), path).toEqual({ error: 'NotFound', message: expect.any(String) })
    }
    // XRPC's own answers are untouched: an unknown method is still 501.
    const unknown = await fetch(`${net.stack.host.url}/xrpc/example.groups.noSuchMethod`)
    expect(unknown.status).toBe(501)
    expect(await unknown.json()).toMatchObject({ error: 'MethodNotImplemented' })
  })
})
