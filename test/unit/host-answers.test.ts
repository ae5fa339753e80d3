import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { installLogSink } from '@core/log/log.js'
import { toIpcError } from '@core/ipc/errors.js'
import { HostClient } from '@core/xrpc/host-client.js'
import { ServiceAuthCache } from '@core/xrpc/service-auth-cache.js'
import { callProcedure } from '@core/xrpc/validated-call.js'
import { XrpcCallError } from '@core/xrpc/xrpc-error.js'
import { plainMessage } from '@shared/errors.js'
import { createHostCallFetch } from '@node/safe-fetch.js'

/**
 * A group host that answers whatever the test sets: the app must check every answer
 * against the lexicons, turn a malformed one into plain words, and log what was wrong.
 */
let answer: { status: number; body: string; type?: string } = { status: 200, body: '{}' }
const seen: { url: string; auth?: string }[] = []
const server = http.createServer((req, res) => {
  seen.push({ url: req.url!, auth: req.headers.authorization })
  req.resume()
  res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' })
  res.end(answer.body)
})
let url = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const lines: string[] = []
installLogSink({ write: (line) => lines.push(line) })
afterEach(() => {
  lines.length = 0
  seen.length = 0
})

const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJkaWQ6cGxjOmFiYyJ9.c2lnbmF0dXJl'
const client = () => new HostClient({ url, aud: 'did:web:host.test#groups' }, new ServiceAuthCache(async () => TOKEN), createHostCallFetch({ allowLoopbackPeers: true }))
const GROUP = { did: 'did:plc:group', joinPolicy: 'approval', roles: [{ name: 'owner', actions: ['admit'], assignable: [] }] }

async function refusal(p: Promise<unknown>): Promise<XrpcCallError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(XrpcCallError)
  return err as XrpcCallError
}

describe('answers from a group host are checked against the lexicons', () => {
  it('takes a well-formed answer, typed by the method', async () => {
    answer = { status: 200, body: JSON.stringify({ ...GROUP, viewer: { roles: ['owner'], actions: ['admit'] } }) }
    const g = await client().query('example.groups.getGroup', { group: 'did:plc:group' })
    expect(g.roles[0]!.name).toBe('owner')
    expect(g.viewer?.actions).toEqual(['admit'])
    expect(seen[0]).toEqual({ url: '/xrpc/example.groups.getGroup?group=did%3Aplc%3Agroup', auth: `Bearer ${TOKEN}` })
    expect(lines).toEqual([])
  })

  it.each([
    ['a field of the wrong type', { ...GROUP, roles: 'owner' }, 'roles must be an array'],
    ['a missing required field', { did: GROUP.did, roles: GROUP.roles }, 'must have the property "joinPolicy"'],
    ['a nested field of the wrong type', { ...GROUP, roles: [{ name: 7, actions: [], assignable: [] }] }, 'name must be a string'],
    ['a malformed DID', { ...GROUP, did: 'not a did' }, 'did must be a valid did'],
  ])('turns %s into plain words, with the detail in the log', async (_what, body, problem) => {
    answer = { status: 200, body: JSON.stringify(body) }
    const err = await refusal(client().query('example.groups.getGroup', { group: 'did:plc:group' }))
    expect(err.error).toBe('HostAnswerNotUnderstood')
    // What the person reads: plain words, nothing from the odd answer.
    const shown = toIpcError(err, () => {})
    expect(shown).toEqual({ code: 'HostAnswerNotUnderstood', message: plainMessage('HostAnswerNotUnderstood') })
    expect(shown.message).toMatch(/group host answered something Convene does not understand/)
    // What the log keeps: which method, which host, what did not match; never the token.
    expect(lines).toHaveLength(1)
    const entry = JSON.parse(lines[0]!) as Record<string, string>
    expect(entry).toMatchObject({ level: 'warn', scope: 'xrpc', method: 'example.groups.getGroup', peer: 'host', url })
    expect(entry.problem).toContain(problem)
    expect(lines[0]).not.toContain(TOKEN)
  })

  it('treats an answer that is not JSON, or not an object, the same way', async () => {
    for (const body of ['{"did": "did:plc:group",', '[1, 2, 3]', '"hello"']) {
      answer = { status: 200, body }
      expect((await refusal(client().query('example.groups.getGroup', { group: 'did:plc:group' }))).error).toBe('HostAnswerNotUnderstood')
    }
    answer = { status: 200, body: '<html>hello</html>', type: 'text/html' }
    expect((await refusal(client().query('example.groups.getGroup', { group: 'did:plc:group' }))).error).toBe('HostAnswerNotUnderstood')
    expect(lines).toHaveLength(4)
  })

  it('checks procedures’ answers too (a list where one item is missing a field)', async () => {
    answer = { status: 200, body: JSON.stringify({ requests: [{ id: '1', did: 'did:plc:a', createdAt: '2026-01-01T00:00:00.000Z' }, { id: '2', did: 'did:plc:b' }] }) }
    expect((await refusal(client().query('example.groups.listJoinRequests', { group: 'did:plc:group', limit: 100 }))).error).toBe('HostAnswerNotUnderstood')
    answer = { status: 200, body: JSON.stringify({ uri: 42 }) }
    const err = await refusal(
      client().procedure('example.groups.createSpace', { group: 'did:plc:group', type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar', readableBy: [], credentialScopes: [] }),
    )
    expect(err.error).toBe('HostAnswerNotUnderstood')
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ method: 'example.groups.createSpace' })
  })

  it('keeps a host’s refusal as the refusal it is, with its status and error name', async () => {
    answer = { status: 400, body: JSON.stringify({ error: 'NotHosted', message: 'moved' }) }
    const err = await refusal(client().query('example.groups.getGroup', { group: 'did:plc:group' }))
    expect({ status: err.status, error: err.error, serverMessage: err.serverMessage }).toEqual({ status: 400, error: 'NotHosted', serverMessage: 'moved' })
    answer = { status: 409, body: JSON.stringify({ error: 'AlreadyMember', message: '' }) }
    expect((await refusal(client().procedure('example.groups.admitMember', { group: 'did:plc:group', did: 'did:plc:a', decision: 'admit' }))).status).toBe(409)
    expect(lines).toEqual([])
  })

  it('says a host that cannot be reached is unreachable', async () => {
    const gone = new HostClient({ url: 'http://127.0.0.1:1', aud: 'did:web:gone#groups' }, new ServiceAuthCache(async () => TOKEN), createHostCallFetch({ allowLoopbackPeers: true }))
    const err = await refusal(gone.query('example.groups.getGroup', { group: 'did:plc:group' }))
    expect({ status: err.status, error: err.error }).toEqual({ status: 0, error: 'HostUnreachable' })
  })

  it('names the person’s own server, not a group host, when it is the one that answered oddly', async () => {
    answer = { status: 200, body: JSON.stringify({ uri: 'at://x', cid: 5 }) }
    const send = (path: string, init: RequestInit) => fetch(new URL(path, url), init)
    const err = await refusal(
      callProcedure(send, { kind: 'pds', url }, 'com.atproto.space.putRecord', { space: 'at://did:plc:group/space/members/self', repo: 'did:plc:me', collection: 'example.groups.acceptance', rkey: 'self', record: {} }),
    )
    expect(err.error).toBe('ServerAnswerNotUnderstood')
    expect(toIpcError(err, () => {}).message).toMatch(/^Your account’s server answered something Convene does not understand/)
  })
})
