import { fork, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANNELS, NOTICE_CHANNEL } from '../../src/shared/ipc/contract.js'
import { useLocalNetwork } from '../support/local-network.js'

/** electron-log (the installed app's log writer) listens on this channel of its own. */
const ELECTRON_LOG_CHANNEL = '__ELECTRON_LOG__'

/**
 * The built main bundle (out/main/index.js, as Electron would load it) started in plain
 * Node with a stand-in `electron` module (test/support/electron-double): no Electron
 * binary can be downloaded here. It must start the core against the local network and
 * the keychain, wire every contract channel, open the window with its security options,
 * set the menu, and hold a quit until the core has closed.
 *
 * Run it after `npx electron-vite build`, in a D-Bus session with a throwaway keyring
 * (see the README's test command).
 */
const root = path.resolve(import.meta.dirname, '../..')
const bundle = path.join(root, 'out/main/index.js')
const rendererUrl = pathToFileURL(path.join(root, 'out/renderer/index.html')).href

type Record_ = { kind: 'record'; what: string; [k: string]: unknown }
const net = useLocalNetwork()
const records: Record_[] = []
let child: ChildProcess
let exited: Promise<number | null>
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-smoke-'))
const results = new Map<number, (value: unknown) => void>()
let nextId = 0

const seen = (what: string) => records.filter((r) => r.what === what)
/** The first record of a kind, as the shape the stand-in reported. */
function first<T>(what: string): T {
  const record = seen(what)[0]
  if (!record) throw new Error(`the app never did ${what}`)
  return record as unknown as T
}
async function until(what: string, count = 1, ms = 20_000) {
  const end = Date.now() + ms
  while (seen(what).length < count) {
    if (Date.now() > end) throw new Error(`no ${what} within ${ms} ms; saw ${records.map((r) => r.what).join(', ')}`)
    await new Promise((r) => setTimeout(r, 20))
  }
  return seen(what)
}
const invoke = (channel: string, input: unknown = {}, url = rendererUrl) =>
  new Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>((resolve) => {
    const id = nextId++
    results.set(id, resolve as (v: unknown) => void)
    child.send({ kind: 'invoke', id, channel, input, url })
  })

beforeAll(async () => {
  expect(fs.existsSync(bundle), 'build the app first: npx electron-vite build').toBe(true)
  const stackFile = path.join(tmp, 'stack.json')
  fs.writeFileSync(stackFile, JSON.stringify(net.stack))
  child = fork(bundle, [], {
    execArgv: ['--import', pathToFileURL(path.join(root, 'test/support/electron-double/register.mjs')).href],
    env: {
      ...process.env,
      CONVENE_STACK_FILE: stackFile,
      CONVENE_DATA_DIR: path.join(tmp, 'data'),
      CONVENE_KEYCHAIN_SERVICE: `${process.env.CONVENE_KEYCHAIN_SERVICE ?? 'convene-test'}-smoke`,
      ELECTRON_DOUBLE_HOME: path.join(tmp, 'home'),
      ELECTRON_RENDERER_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)))
  child.on('message', (msg: Record_ | { kind: 'result'; id: number; value: unknown }) => {
    if (msg.kind === 'record') records.push(msg)
    else results.get(msg.id)?.(msg.value)
  })
  // The window opens once the core has started and every channel is wired.
  await until('BrowserWindow.loadFile')
}, 120_000)

afterAll(() => {
  if (child.exitCode === null) child.kill()
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('the built Electron main process, on a stand-in Electron', () => {
  it('wires exactly one ipcMain handler per contract channel', () => {
    // Besides the contract, only electron-log's own channel, which it registers as it loads
    // (the renderer has no raw ipcRenderer to reach it: the preload exposes the contract alone).
    const channels = seen('ipcMain.handle').map((r) => r.channel as string)
    expect(channels.filter((c) => c !== ELECTRON_LOG_CHANNEL).sort()).toEqual([...CHANNELS].sort())
    expect(channels.filter((c) => !CHANNELS.includes(c as never))).toEqual([ELECTRON_LOG_CHANNEL])
  })

  it('pushes the core\'s change notices to the window on the notice channel (the start-up sync says where it stands)', async () => {
    await until('webContents.send')
    const sent = seen('webContents.send')
    expect(new Set(sent.map((r) => r.channel))).toEqual(new Set([NOTICE_CHANNEL]))
    expect(sent.map((r) => r.name)).toContain('sync.progress')
  })

  it('puts the count of what waits on Today on the dock or taskbar badge (nothing yet: no account)', async () => {
    await until('app.setBadgeCount')
    expect(first<{ count: number }>('app.setBadgeCount').count).toBe(0)
  })

  it('started the core against the local network and the keychain', async () => {
    const info = await invoke('app.getInfo')
    expect(info).toMatchObject({
      ok: true,
      value: { shell: 'electron', version: '0.0.0-smoke', network: { kind: 'local', pdsUrl: net.stack.pds, hostUrl: net.stack.host.url }, keychain: { available: true } },
    })
    expect(await invoke('accounts.list')).toEqual({ ok: true, value: [] })
    // Not the installed app: no updater, and nothing offers a restart.
    expect(await invoke('app.updateStatus')).toMatchObject({ ok: true, value: { state: 'unavailable', canRestart: false } })
  })

  it('serves only its own top frame: a call from another page is refused', async () => {
    expect(await invoke('accounts.list', {}, 'https://evil.example/')).toMatchObject({ ok: false, error: { code: 'Refused' } })
  })

  it('opens one sandboxed, isolated window without Node or webviews, showing the built renderer', () => {
    const win = first<{ options: { webPreferences: Record<string, unknown> } }>('BrowserWindow')
    expect(seen('BrowserWindow')).toHaveLength(1)
    expect(win.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webviewTag: false, webSecurity: true })
    const preload = win.options.webPreferences.preload as string
    expect(preload).toBe(path.join(root, 'out/preload/index.cjs'))
    expect(first<{ file: string }>('BrowserWindow.loadFile').file).toBe(path.join(root, 'out/renderer/index.html'))
  })

  it('puts its guards on: CSP on every response, only notifications and clipboard writes, no new windows, no navigating away, no webviews', () => {
    const { headers } = first<{ headers: Record<string, string[]> }>('session.headers')
    expect(headers['Content-Security-Policy']?.[0]).toContain("default-src 'self'")
    expect(seen('session.permission').map((r) => [r.permission, r.granted])).toEqual([
      ['notifications', true],
      ['clipboard-sanitized-write', true],
      ['clipboard-read', false],
      ['media', false],
      ['geolocation', false],
    ])
    expect(first<{ answer: unknown }>('webContents.windowOpen').answer).toEqual({ action: 'deny' })
    expect(seen('shell.openExternal').map((r) => r.url)).toEqual(['https://example.com/'])
    expect(seen('webContents.guard').map((r) => [r.event, r.url === rendererUrl ? 'app' : 'elsewhere', r.prevented])).toEqual([
      ['will-navigate', 'elsewhere', true],
      ['will-navigate', 'app', false],
      ['will-redirect', 'elsewhere', true],
      ['will-attach-webview', 'elsewhere', true],
    ])
  })

  it('sets the application menu and the About panel with versions', () => {
    const menu = first<{ template: { label: string; submenu: { label?: string; role?: string }[] }[] }>('Menu.setApplicationMenu')
    const top = menu.template.map((m) => m.label.replace(/&/g, ''))
    expect(top.slice(1)).toEqual(['Edit', 'View', 'Window', 'Help'])
    expect(menu.template.at(-1)!.submenu.map((i) => i.label)).toContain('Open Log Folder')
    // A development-less build: no reload in the View menu.
    expect(menu.template[2]?.submenu.map((i) => i.role)).not.toContain('reload')
    const about = first<{ options: { credits: string } }>('app.setAboutPanelOptions')
    expect(about.options.credits).toContain(`Node ${process.versions.node}`)
  })

  it('holds the quit until the core has closed, refusing calls that arrive meanwhile, then quits', async () => {
    child.send({ kind: 'quit', probe: 'accounts.list', url: rendererUrl })
    await until('quit')
    const order = records.filter((r) => ['before-quit', 'probe', 'quit'].includes(r.what)).map((r) => (r.what === 'before-quit' ? `before-quit${r.prevented ? ' (held)' : ''}` : r.what))
    expect(order).toEqual(['before-quit (held)', 'probe', 'before-quit', 'quit'])
    expect(first<{ value: unknown }>('probe').value).toMatchObject({ ok: false, error: { code: 'AppClosing' } })
    expect(await exited).toBe(0)
  })
})
