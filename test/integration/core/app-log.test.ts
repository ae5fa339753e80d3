import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NodeSavedSession } from '@atproto/oauth-client-node'
import { sessionKey } from '../../../src/main/core/accounts/account-store.js'
import { fileLogSink } from '../../../src/main/core/log/file-sink.js'
import { installLogSink } from '../../../src/main/core/log/log.js'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

// The loopback shell's log (src/main/loopback/launch.ts), installed before the sign-in.
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-logs-'))
beforeAll(() => installLogSink(fileLogSink(logDir)))
afterAll(() => {
  installLogSink(null)
  fs.rmSync(logDir, { recursive: true, force: true })
})
useSignedInCore(net, {}, (signedIn) => ({ app, owner } = signedIn))

const readLog = () =>
  fs
    .readdirSync(logDir)
    .map((f) => fs.readFileSync(path.join(logDir, f), 'utf8'))
    .join('')

describe('the app log after a session of work', () => {
  it('holds what failed as JSON lines and none of the session’s tokens or keys', async () => {
    const groupDid = net.group('open').did
    await app.call('groups.add', { accountDid: owner, ref: groupDid })
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'invite.create', invitee: net.as('outsider2').did } })
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    await app.call('sync.now', {})
    // Refused by the host (its handle domains are .groups.test): a failure the log explains.
    await expect(app.call('groups.create', { accountDid: owner, handle: 'stray.example.com', joinPolicy: 'open' })).rejects.toThrow()

    // What the session holds: read from the keychain, where only it lives.
    const session = JSON.parse((await app.secrets.get(sessionKey(owner)))!) as NodeSavedSession
    const secrets = {
      access: session.tokenSet.access_token,
      refresh: session.tokenSet.refresh_token!,
      dpopD: (session.dpopJwk as { d?: string }).d!,
      // A service-auth token the core used with the host (cached by the runtime).
      serviceAuth: await (await app.core.groups.runtime(owner)).auth.get(net.stack.host.aud, 'example.groups.getGroup'),
    }
    for (const [name, value] of Object.entries(secrets)) expect(value, name).toMatch(/.{16,}/)

    const text = readLog()
    const lines = text.trim().split('\n')
    const entries = lines.map((l) => JSON.parse(l) as { time: string; level: string; scope: string; msg: string; error?: { message: string } })
    const failure = entries.find((e) => e.level === 'error' && e.msg === 'groups.create failed')
    expect(failure?.error?.message).toMatch(/createGroup/)
    expect(Date.parse(failure!.time)).not.toBeNaN()
    expect(entries).toContainEqual(expect.objectContaining({ level: 'info', scope: 'accounts', msg: 'signed in', did: owner }))
    // The sign-in page's address is logged without its request_uri.
    const started = entries.find((e) => e.msg === 'sign-in started') as { authorizeUrl?: string } | undefined
    expect(started?.authorizeUrl).toMatch(/request_uri=\[redacted\]/)

    for (const [name, value] of Object.entries(secrets)) expect(text.includes(value), `${name} in the log`).toBe(false)
    expect(text).not.toMatch(/eyJ[\w-]{8,}\.[\w-]{8,}\./) // no JWT of any kind
    expect(text).not.toMatch(/"d"\s*:\s*"/)
    expect(text).not.toMatch(/access_token|refresh_token|dpopJwk|accessJwt/)
  })
})
