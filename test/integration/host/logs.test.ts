import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc, type Caller } from '../../support/local-network.js'
import { createDpopKey, dpopProof } from '../../support/dpop.js'
import { hostKeyFile, hostSecret } from '../../support/host-db.js'

const net = useLocalNetwork()
const EVENT = 'community.lexicon.calendar.event'
const group = () => net.group('open').did
const calendar = () => `at://${group()}/space/community.lexicon.calendar/self`
const BODY_MARKER = 'body-marker-that-must-not-be-logged'

interface LogLine {
  msg: string
  level: number
  reqId?: string
  method?: string
  nsid?: string
  path?: string
  status?: number
  ms?: number
  caller?: string
  error?: string
}

const logText = () => fs.readFileSync(path.join(net.running.dataDir, 'host.log'), 'utf8')

/** Waits for the host's asynchronous log writer to have written lines for every id. */
async function logWith(ids: string[]): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const text = logText()
    if (ids.every((id) => text.includes(`"reqId":"${id}"`))) return text
    await sleep(50)
  }
  return logText()
}

describe('the host’s log', () => {
  it('has one JSON line per request with its id, and no token, proof or key anywhere', async () => {
    const secrets: string[] = []
    const sent: { id: string; status: number; caller?: string; error?: string; nsid: string }[] = []
    let n = 0
    const nextId = () => `test-${Date.now()}-${n++}`

    /** A call with real service auth; the token is remembered to be looked for in the log. */
    const call = async (who: Caller, nsid: string, init: { params?: Record<string, string>; body?: unknown }) => {
      const token = await who.serviceAuth(nsid)
      secrets.push(token)
      const id = nextId()
      const res = await xrpc(net.stack.host.url, nsid, { ...init, headers: { authorization: `Bearer ${token}`, 'x-request-id': id } })
      expect(res.headers.get('x-request-id')).toBe(id)
      return { id, res }
    }

    let r = await call(net.as('owner'), 'example.groups.getGroup', { params: { group: group() } })
    sent.push({ id: r.id, status: 200, caller: net.as('owner').did, nsid: 'example.groups.getGroup' })
    r = await call(net.as('owner'), 'example.groups.listMembers', { params: { group: group() } })
    sent.push({ id: r.id, status: 200, caller: net.as('owner').did, nsid: 'example.groups.listMembers' })
    const space = {
      group: group(), type: 'community.lexicon.calendar', skey: 'self', name: BODY_MARKER,
      readableBy: ['owner', 'admin', 'member'], credentialScopes: [{ role: 'owner', scopes: ['*'] }],
    }
    r = await call(net.as('member'), 'example.groups.createSpace', { body: space })
    expect(r.res.status).toBe(400)
    sent.push({ id: r.id, status: 400, caller: net.as('member').did, error: r.res.body.error as string, nsid: 'example.groups.createSpace' })
    r = await call(net.as('owner'), 'example.groups.createSpace', { body: space })
    expect(r.res.status, JSON.stringify(r.res.body)).toBe(200)
    sent.push({ id: r.id, status: 200, caller: net.as('owner').did, nsid: 'example.groups.createSpace' })

    // A forged token: refused, no caller, the error name logged.
    const forged = `${Buffer.from('{"alg":"ES256K"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: net.as('owner').did, aud: net.stack.host.aud, lxm: 'example.groups.getGroup', exp: 9999999999 })).toString('base64url')}.${'B'.repeat(86)}`
    secrets.push(forged)
    let id = nextId()
    const refused = await xrpc(net.stack.host.url, 'example.groups.getGroup', { params: { group: group() }, headers: { authorization: `Bearer ${forged}`, 'x-request-id': id } })
    expect(refused.status).toBe(401)
    sent.push({ id, status: 401, error: refused.body.error as string, nsid: 'example.groups.getGroup' })

    // getGroupAuth with DPoP (a nonce challenge, then the grant), then a write with the credential.
    const key = await createDpopKey()
    const gaUrl = `${net.stack.host.url}/xrpc/example.groups.getGroupAuth`
    let nonce: string | undefined
    let grant: { accessJwt: string; pds: string } | undefined
    for (let attempt = 0; attempt < 2 && !grant; attempt++) {
      const token = await net.as('owner').serviceAuth('example.groups.getGroupAuth')
      const proof = await dpopProof(key, { htm: 'POST', htu: gaUrl, nonce })
      secrets.push(token, proof)
      id = nextId()
      const res = await fetch(gaUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, dpop: proof, 'content-type': 'application/json', 'x-request-id': id },
        body: JSON.stringify({ group: group(), space: calendar() }),
      })
      nonce = res.headers.get('dpop-nonce') ?? nonce
      const body = (await res.json()) as { accessJwt: string; pds: string; error?: string }
      sent.push({ id, status: res.status, caller: net.as('owner').did, error: body.error, nsid: 'example.groups.getGroupAuth' })
      if (res.status === 200) grant = body
    }
    expect(grant).toBeDefined()
    secrets.push(grant!.accessJwt)
    const writeUrl = `${grant!.pds}/xrpc/com.atproto.space.createRecord`
    const record = { $type: EVENT, name: BODY_MARKER, startsAt: '2030-01-01T10:00:00.000Z', createdAt: new Date().toISOString() }
    let wrote = 0
    for (let attempt = 0; attempt < 2 && wrote !== 200; attempt++) {
      const proof = await dpopProof(key, { htm: 'POST', htu: writeUrl, nonce, accessToken: grant!.accessJwt })
      secrets.push(proof)
      id = nextId()
      const res = await fetch(writeUrl, {
        method: 'POST',
        headers: { authorization: `DPoP ${grant!.accessJwt}`, dpop: proof, 'content-type': 'application/json', 'x-request-id': id },
        body: JSON.stringify({ space: calendar(), repo: group(), collection: EVENT, record }),
      })
      nonce = res.headers.get('dpop-nonce') ?? nonce
      wrote = res.status
      const body = (await res.json()) as { error?: string }
      sent.push({ id, status: res.status, caller: res.status === 200 ? net.as('owner').did : undefined, error: body.error, nsid: 'com.atproto.space.createRecord' })
    }
    expect(wrote).toBe(200)

    // A request id that is not a short plain token is replaced, not written.
    const insane = 'evil id\u2028{"injected":true}'.padEnd(80, 'x')
    const replaced = await fetch(`${net.stack.host.url}/xrpc/_health`, { headers: { 'x-request-id': encodeURIComponent(insane) } })
    const generated = replaced.headers.get('x-request-id')!
    expect(generated).toMatch(/^[0-9a-f-]{36}$/)

    const text = await logWith([...sent.map((s) => s.id), generated])
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as LogLine)
    expect(lines.some((l) => l.msg === 'host started')).toBe(true)

    for (const s of sent) {
      const mine = lines.filter((l) => l.reqId === s.id && l.msg === 'request')
      expect(mine, s.id).toHaveLength(1)
      expect(mine[0], s.id).toMatchObject({ method: expect.any(String), nsid: s.nsid, status: s.status, ms: expect.any(Number) })
      expect(mine[0]!.caller, s.id).toBe(s.caller)
      expect(mine[0]!.error, s.id).toBe(s.error)
    }
    expect(sent.filter((s) => s.error).length).toBeGreaterThanOrEqual(3) // refusals were logged with their names
    expect(lines.filter((l) => l.reqId === generated)).toHaveLength(1)
    expect(text).not.toContain('injected')

    // Nothing secret: whole tokens and proofs, their signatures and claims, the host key, the stored secrets, bodies.
    const keyText = fs.readFileSync(hostKeyFile(net.running), 'utf8').trim()
    const stored = await Promise.all(['signingKey', 'serviceRotationKey', 'dpopNonceSecret', 'groupTokenSecret'].map((name) => hostSecret(net.running, name)))
    const needles = [
      ...secrets,
      ...secrets.flatMap((t) => t.split('.').slice(1)).filter((part) => part.length > 20),
      keyText,
      ...stored,
      ...stored.map((hex) => Buffer.from(hex, 'hex').toString('base64')),
      BODY_MARKER,
      'Bearer ',
      'DPoP ey',
    ]
    for (const needle of needles) expect(text.includes(needle), `log contains ${needle.slice(0, 24)}…`).toBe(false)
  })
})
