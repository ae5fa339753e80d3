import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fileLogSink } from '../../src/main/core/log/file-sink.js'
import { errorFields, formatLine, installLogSink, log } from '../../src/main/core/log/log.js'
import { redact, REDACTED } from '../../src/main/core/log/redact.js'

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'convene-log-'))
const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJkaWQ6cGxjOmFiYyJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ'

describe('the log file', () => {
  afterEach(() => installLogSink(null))

  it('holds one JSON object per line with time, level, scope and message', () => {
    const dir = tmp()
    installLogSink(fileLogSink(dir))
    log.error('sync', 'group sync failed', { groupDid: 'did:plc:g1' })
    log.info('core', 'started')
    const lines = fs.readFileSync(path.join(dir, 'convene.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines).toMatchObject([
      { level: 'error', scope: 'sync', msg: 'group sync failed', groupDid: 'did:plc:g1' },
      { level: 'info', scope: 'core', msg: 'started' },
    ])
    expect(Date.parse(String(lines[0]?.time))).not.toBeNaN()
    // A field cannot pass for the entry's own keys.
    expect(JSON.parse(formatLine('info', 'accounts', 'signed in', { scope: 'atproto', level: 'error' }))).toMatchObject({ scope: 'accounts', level: 'info' })
  })

  it('rotates by size and keeps only a few files, newest lines in convene.log', () => {
    const dir = tmp()
    const sink = fileLogSink(dir, { maxBytes: 1000, keep: 2 })
    for (let i = 0; i < 60; i++) sink.write(JSON.stringify({ i, pad: 'x'.repeat(80) }), 'info')
    expect(fs.readdirSync(dir).sort()).toEqual(['convene.1.log', 'convene.2.log', 'convene.log'])
    for (const f of fs.readdirSync(dir)) expect(fs.statSync(path.join(dir, f)).size).toBeLessThanOrEqual(1000)
    const last = fs.readFileSync(path.join(dir, 'convene.log'), 'utf8').trim().split('\n').pop()!
    expect(JSON.parse(last)).toMatchObject({ i: 59 })
    const first = JSON.parse(fs.readFileSync(path.join(dir, 'convene.2.log'), 'utf8').split('\n')[0]!) as { i: number }
    expect(first.i).toBeGreaterThan(0) // the oldest lines were dropped, not kept forever
  })

  it('makes its folder again if it was removed while the app ran', () => {
    const dir = tmp()
    const sink = fileLogSink(dir)
    fs.rmSync(dir, { recursive: true })
    sink.write('{"a":1}', 'info')
    expect(fs.readFileSync(path.join(dir, 'convene.log'), 'utf8')).toBe('{"a":1}\n')
  })

  it('continues an existing file after a restart instead of starting over', () => {
    const dir = tmp()
    fileLogSink(dir).write('{"a":1}', 'info')
    fileLogSink(dir).write('{"a":2}', 'info')
    expect(fs.readFileSync(path.join(dir, 'convene.log'), 'utf8')).toBe('{"a":1}\n{"a":2}\n')
  })
})

describe('redaction', () => {
  it('censors secret-named fields whole, at any depth', () => {
    const out = redact({
      did: 'did:plc:abc',
      session: { tokenSet: { access_token: 'at', refresh_token: 'rt' } },
      dpopJwk: { kty: 'EC', crv: 'P-256', x: 'xx', y: 'yy', d: 'private-d' },
      nested: { jwk: { d: 'private-d' }, headers: { Authorization: 'DPoP abc', 'DPoP': 'proof' } },
      password: 'hunter2',
      accessJwt: 'a',
    })
    const text = JSON.stringify(out)
    expect(text).not.toMatch(/private-d|hunter2|"at"|"rt"|DPoP abc|proof/)
    expect(out).toMatchObject({ did: 'did:plc:abc', session: REDACTED, dpopJwk: REDACTED, password: REDACTED, accessJwt: REDACTED })
  })

  it('censors JWTs and auth headers inside any text, and keeps the words around them', () => {
    const line = formatLine('error', 'core', `call failed with Authorization: Bearer abc.def and token ${JWT}`, {
      url: `http://127.0.0.1:5/callback?code=cod-123&state=st-9&iss=http%3A%2F%2Fpds`,
      note: `DPoP ${JWT}`,
    })
    expect(line).not.toContain(JWT)
    expect(line).not.toMatch(/abc\.def|cod-123|st-9/)
    expect(JSON.parse(line)).toMatchObject({ msg: `call failed with Authorization: Bearer ${REDACTED} and token ${REDACTED}` })
    expect(line).toContain('iss=http') // only the secret parameters go
  })

  it('censors secret name=value pairs in an error\'s words, not only in URLs', () => {
    const line = formatLine('error', 'core', 'accounts.list failed', { error: errorFields(new Error('token=SECRET at /home/x, password=hunter2; code=c1')) })
    expect(line).not.toMatch(/SECRET|hunter2|c1/)
    expect(line).toContain('at /home/x')
  })

  it('an error keeps its name and message, not the secrets its object carries', () => {
    const err = Object.assign(new Error(`refresh failed for ${JWT}`), { tokenSet: { refresh_token: 'rt-secret' }, status: 400 })
    const line = formatLine('error', 'accounts', 'session restore failed', { raw: err, ...errorFields(err) })
    expect(line).not.toMatch(/rt-secret/)
    expect(line).not.toContain(JWT)
    expect(JSON.parse(line)).toMatchObject({ error: { name: 'Error', message: `refresh failed for ${REDACTED}` }, raw: { status: 400, tokenSet: REDACTED } })
  })

  it('survives cycles and odd values', () => {
    const a: Record<string, unknown> = { n: 1n, f: () => 1 }
    a.self = a
    expect(redact(a)).toEqual({ n: '1', self: '[circular]' })
  })
})
