import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLoopbackShell, type LoopbackShell } from '../../src/main/loopback/server.js'
import { fakeHandlers } from '../support/fake-handlers.js'

let shell: LoopbackShell
let secret: string
const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-renderer-'))

beforeAll(async () => {
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Convene</title>')
  fs.mkdirSync(path.join(rendererDir, 'assets'))
  fs.writeFileSync(path.join(rendererDir, 'assets', 'index-CB1mFT-k.js'), 'console.log(1)')
  const handlers = fakeHandlers()
  shell = await startLoopbackShell({ handlers, rendererDir })
  secret = new URL(shell.launchUrl).hash.replace('#launch=', '')
})
afterAll(async () => {
  await shell.close()
  fs.rmSync(rendererDir, { recursive: true, force: true })
})

const call = (channel: string, headers: Record<string, string>, body = '{}') =>
  fetch(`${shell.origin}/ipc/${channel}`, { method: 'POST', headers, body })

const good = () => ({ origin: shell.origin, authorization: `Bearer ${secret}`, 'content-type': 'application/json' })

describe('loopback shell', () => {
  it('listens on 127.0.0.1 only and hands out a launch URL with a long secret', () => {
    expect(new URL(shell.origin).hostname).toBe('127.0.0.1')
    expect(secret.length).toBeGreaterThanOrEqual(40)
  })

  it('serves a call from its own page holding the secret', async () => {
    const res = await call('accounts.list', good())
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true, value: [] })
  })

  it('refuses another origin, even with the secret (a web page the person visits)', async () => {
    const res = await call('accounts.list', { ...good(), origin: 'http://evil.example' })
    expect(res.status).toBe(403)
  })

  it('refuses a call without an Origin (another local program)', async () => {
    const { origin: _o, ...rest } = good()
    expect((await call('accounts.list', rest)).status).toBe(403)
  })

  it('refuses a wrong or missing secret', async () => {
    expect((await call('accounts.list', { ...good(), authorization: 'Bearer nope' })).status).toBe(401)
    const { authorization: _a, ...rest } = good()
    expect((await call('accounts.list', rest)).status).toBe(401)
  })

  it('refuses a form post (no CORS preflight) and malformed JSON', async () => {
    expect((await call('accounts.list', { ...good(), 'content-type': 'text/plain' })).status).toBe(415)
    const bad = await call('accounts.list', good(), '{')
    expect(bad.status).toBe(400)
  })

  it('answers unknown channels with a contract error, not a crash', async () => {
    const res = await call('shell.exec', good())
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'UnknownChannel' } })
  })

  it('answers a malformed address with 400 and keeps serving (any local page or program can send one)', async () => {
    for (const bad of ['/%E0%A4%A', '/assets/%ff', '/%']) {
      const res = await fetch(`${shell.origin}${bad}`)
      expect(res.status, bad).toBe(400)
    }
    const ipc = await call('%E0%A4%A', good())
    expect(ipc.status).toBe(400)
    expect(await ipc.json()).toMatchObject({ ok: false, error: { code: 'UnknownChannel' } })
    expect((await call('accounts.list', good())).status).toBe(200)
  })

  it('serves the renderer with a strict CSP and no path escape', async () => {
    const page = await fetch(`${shell.origin}/`)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'")
    const escape = await fetch(`${shell.origin}/..%2f..%2f..%2fetc%2fpasswd`)
    expect(await escape.text()).not.toContain('root:')
  })

  it('lets the browser keep hashed assets (and their compiled code) but never the page that names them', async () => {
    const asset = await fetch(`${shell.origin}/assets/index-CB1mFT-k.js`)
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await asset.text()).toBe('console.log(1)')
    for (const page of ['/', '/index.html', '/assets/missing-CB1mFT-k.js']) {
      expect((await fetch(`${shell.origin}${page}`)).headers.get('cache-control')).toBe('no-store')
    }
  })

  it('takes a call as large as a batch of 10,000 decisions, and refuses one far larger', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(2.5 * 1024 * 1024) })
    expect((await call('accounts.list', good(), big)).status).toBe(200)
    const huge = JSON.stringify({ pad: 'x'.repeat(5 * 1024 * 1024) })
    expect((await call('accounts.list', good(), huge)).status).toBe(413)
  })
})
