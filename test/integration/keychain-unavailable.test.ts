import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')

// The core in a process that has no Secret Service to talk to (its D-Bus address
// points nowhere), as on a desktop without a keyring.
const SCRIPT = `
import os from 'node:os'
import { createCore } from './src/main/core/app-core.ts'
import { dispatch } from './src/main/core/ipc/dispatch.ts'
import { KeychainSecretStore } from './src/main/core/secrets/keychain-secret-store.ts'
const core = await createCore({ version: 't', shell: 'loopback', network: null, secrets: new KeychainSecretStore('convene-no-keychain'), dataDir: os.tmpdir(), syncIntervalMs: 0 })
const info = await dispatch(core.handlers, 'app.getInfo', {})
const signIn = await dispatch(core.handlers, 'accounts.signIn', { handle: 'alice.test' })
console.log(JSON.stringify({ info, signIn }))
await core.close()
`

describe('no keychain', () => {
  it('says so plainly and refuses to sign in, with no plaintext fallback', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: root,
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/convene-bus', DISPLAY: '' },
      encoding: 'utf8',
      timeout: 30_000,
    })
    const { info, signIn } = JSON.parse(out.trim().split('\n').pop()!) as {
      info: { value: { keychain: { available: boolean; message: string } } }
      signIn: { ok: boolean; error: { code: string; message: string } }
    }
    expect(info.value.keychain.available).toBe(false)
    expect(info.value.keychain.message).toContain('system keychain')
    expect(signIn).toMatchObject({ ok: false, error: { code: 'KeychainUnavailable' } })
  })
})
