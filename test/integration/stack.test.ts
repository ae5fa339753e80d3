import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { createIdResolver } from '../../src/node/id-resolver.js'
import { verifyJwt } from '@atproto/xrpc-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StackFile } from '../../src/shared/stack-file.js'

const root = path.resolve(import.meta.dirname, '../..')
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-stack-test-'))
const out = path.join(outDir, 'stack.json')
let child: ChildProcess
let stack: StackFile
let startupMs = 0

/** Runs the stack's command-line entry as `npm run stack` does, writing to `out`. */
beforeAll(async () => {
  const started = Date.now()
  child = spawn(process.execPath, ['--import', 'tsx', 'src/stack/bin.ts', '--out', out], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  while (!fs.existsSync(out)) {
    if (child.exitCode !== null) throw new Error(`npm run stack exited early:\n${output}`)
    if (Date.now() - started > 60_000) throw new Error(`no stack.json within 60 s:\n${output}`)
    await sleep(100)
  }
  startupMs = Date.now() - started
  stack = JSON.parse(fs.readFileSync(out, 'utf8')) as StackFile
})

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGKILL')
  }
  fs.rmSync(outDir, { recursive: true, force: true })
})

async function xrpc<T>(base: string, method: string, init: { query?: Record<string, string>; body?: unknown; token?: string } = {}) {
  const url = new URL(`/xrpc/${method}`, base)
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v)
  const res = await fetch(url, {
    method: init.body ? 'POST' : 'GET',
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  })
  return { status: res.status, body: (await res.json()) as T }
}

describe('npm run stack', () => {
  it('writes stack.json in the decisions §5 shape within 60 s, every service on loopback', () => {
    expect(startupMs).toBeLessThan(60_000)
    for (const url of [stack.plc, stack.pds, stack.host.url]) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(stack.host.aud).toBe(`${stack.host.serviceDid}#groups`)
    expect(stack.accounts.map((a) => a.name)).toEqual(['owner', 'admin', 'moderator', 'member', 'outsider', 'outsider2'])
    for (const a of stack.accounts) {
      expect(a.did).toMatch(/^did:plc:/)
      expect(a.password).toBeTruthy()
      expect(a.handle).toBeTruthy()
    }
    expect(stack.groups.map((g) => [g.name, g.joinPolicy])).toEqual([
      ['open', 'open'],
      ['approval', 'approval'],
      ['invite', 'invite'],
    ])
    for (const g of stack.groups) expect(g.did).toMatch(/^did:plc:/)
  })

  it('a password session mints service auth for the host #groups audience, verifiable against the DID document', async () => {
    const owner = stack.accounts.find((a) => a.name === 'owner')!
    const session = await xrpc<{ accessJwt: string; did: string }>(stack.pds, 'com.atproto.server.createSession', {
      body: { identifier: owner.handle, password: owner.password },
    })
    expect(session.status).toBe(200)
    const minted = await xrpc<{ token: string }>(stack.pds, 'com.atproto.server.getServiceAuth', {
      query: { aud: stack.host.aud, lxm: 'example.groups.requestJoin' },
      token: session.body.accessJwt,
    })
    expect(minted.status).toBe(200)

    const idResolver = createIdResolver(stack.plc)
    const payload = await verifyJwt(minted.body.token, stack.host.aud, 'example.groups.requestJoin', async (iss, forceRefresh) =>
      idResolver.did.resolveAtprotoKey(iss, forceRefresh),
    )
    expect(payload.iss).toBe(owner.did)
    expect(payload.aud).toBe(`${stack.host.serviceDid}#groups`)
    expect(payload.lxm).toBe('example.groups.requestJoin')
  })

  it("resolving a group's DID leads to the host's URL, and the host answers as that service DID", async () => {
    const idResolver = createIdResolver(stack.plc)
    for (const group of stack.groups) {
      const doc = await idResolver.did.resolve(group.did)
      const service = doc?.service?.find((s) => s.id === '#groups')
      expect(service?.serviceEndpoint).toBe(stack.host.url)
      expect(doc?.alsoKnownAs).toEqual([`at://${group.handle}`])
    }
    const hostDoc = await idResolver.did.resolve(stack.host.serviceDid)
    expect(hostDoc?.service?.find((s) => s.id === '#groups')?.serviceEndpoint).toBe(stack.host.url)
    const health = await xrpc<{ did: string }>(stack.host.url, '_health')
    expect(health.body.did).toBe(stack.host.serviceDid)
  })

  it('publishes the permission-set lexicons where the PDS resolves them', async () => {
    for (const nsid of ['example.groups.basePermissions', 'example.groups.calendarPermissions']) {
      const rec = await xrpc<{ value: { defs: { main: { type: string } } } }>(stack.pds, 'com.atproto.repo.getRecord', {
        query: { repo: stack.lexiconAuthority, collection: 'com.atproto.lexicon.schema', rkey: nsid },
      })
      expect(rec.status).toBe(200)
      expect(rec.body.value.defs.main.type).toBe('permission-set')
    }
  })

  it('removes stack.json and stops every service on Ctrl-C', async () => {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGINT')
    await exited
    expect(fs.existsSync(out)).toBe(false)
    await expect(fetch(`${stack.pds}/xrpc/_health`)).rejects.toThrow()
    await expect(fetch(`${stack.host.url}/xrpc/_health`)).rejects.toThrow()
  })
})
