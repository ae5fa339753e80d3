// A stand-in for the `electron` module, for loading the built main bundle in plain Node
// (no Electron binary can be downloaded here). It records what the app asks of Electron
// and reports it to the test over the fork IPC channel; the test drives it back (a
// renderer call, a quit) the same way. Where the app hands Electron a callback (the CSP
// header hook, the permission handler, the navigation guards), the stand-in calls it the
// way Electron would and reports the answer.
import { EventEmitter } from 'node:events'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const report = (what, detail = {}) => process.send?.({ kind: 'record', what, ...detail })
const home = process.env.ELECTRON_DOUBLE_HOME ?? path.join(process.cwd(), '.electron-double')

class App extends EventEmitter {
  isPackaged = process.env.ELECTRON_DOUBLE_PACKAGED === '1'
  #isReady = false
  #ready = new Promise((resolve) =>
    setImmediate(() => {
      this.#isReady = true
      this.emit('ready')
      resolve()
    }),
  )
  whenReady() {
    return this.#ready
  }
  isReady() {
    return this.#isReady
  }
  requestSingleInstanceLock() {
    return true
  }
  getVersion() {
    return '0.0.0-smoke'
  }
  getName() {
    return 'Convene'
  }
  getPath(name) {
    return path.join(home, name)
  }
  /** The dock or taskbar count (Today's waiting items). */
  setBadgeCount(count) {
    report('app.setBadgeCount', { count })
    return true
  }
  setAboutPanelOptions(options) {
    report('app.setAboutPanelOptions', { options })
  }
  /** As Electron: `before-quit` first; the app quits unless a listener prevented it. */
  quit() {
    let prevented = false
    this.emit('before-quit', { preventDefault: () => (prevented = true) })
    report('before-quit', { prevented })
    if (prevented) return
    this.emit('will-quit', { preventDefault() {} })
    this.emit('quit')
    report('quit')
    setImmediate(() => process.exit(0))
  }
  exit(code = 0) {
    report('app.exit', { code })
    process.exit(code)
  }
}
export const app = new App()

/** The guards security.ts puts on every web contents, exercised as Electron would. */
class WebContents extends EventEmitter {
  url = ''
  isDestroyed() {
    return false
  }
  getURL() {
    return this.url
  }
  /** The core's change notices (main -> renderer). */
  send(channel, payload) {
    report('webContents.send', { channel, name: payload?.name })
  }
  setWindowOpenHandler(handler) {
    report('webContents.windowOpen', { answer: handler({ url: 'https://example.com/' }) })
  }
  probeGuards(appUrl) {
    for (const [event, url] of [
      ['will-navigate', 'https://evil.example/'],
      ['will-navigate', appUrl],
      ['will-redirect', 'https://evil.example/'],
      ['will-attach-webview', 'https://evil.example/'],
    ]) {
      let prevented = false
      this.emit(event, { preventDefault: () => (prevented = true) }, url)
      report('webContents.guard', { event, url, prevented })
    }
  }
}

const windows = []
export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return [...windows]
  }
  static getFocusedWindow() {
    return windows[0] ?? null
  }
  constructor(options) {
    super()
    this.webContents = new WebContents()
    windows.push(this)
    report('BrowserWindow', { options })
    app.emit('web-contents-created', {}, this.webContents)
  }
  loadURL(url) {
    report('BrowserWindow.loadURL', { url })
    this.webContents.url = url
    return Promise.resolve()
  }
  loadFile(file) {
    report('BrowserWindow.loadFile', { file })
    this.webContents.url = pathToFileURL(path.resolve(file)).href
    this.webContents.probeGuards(pathToFileURL(path.resolve(file)).href)
    return Promise.resolve()
  }
  isMinimized() {
    return false
  }
  restore() {}
  show() {}
  focus() {}
}

const handlers = new Map()
export const ipcMain = {
  handle(channel, handler) {
    if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    handlers.set(channel, handler)
    report('ipcMain.handle', { channel })
  },
  on(channel) {
    report('ipcMain.on', { channel })
  },
}

export const shell = {
  openExternal: async (url) => report('shell.openExternal', { url }),
  openPath: async (p) => (report('shell.openPath', { path: p }), ''),
}

export const session = {
  defaultSession: {
    webRequest: {
      onHeadersReceived(listener) {
        listener({ responseHeaders: { 'content-type': ['text/html'] } }, (answer) => report('session.headers', { headers: answer.responseHeaders }))
      },
    },
    setPermissionRequestHandler(handler) {
      for (const permission of ['notifications', 'clipboard-sanitized-write', 'clipboard-read', 'media', 'geolocation']) {
        handler(null, permission, (granted) => report('session.permission', { permission, granted }))
      }
    },
  },
}

/** Menu items as data: roles, labels and accelerators (click handlers stay behind). */
const describe = (items) =>
  items.map(({ label, role, accelerator, type, visible, submenu }) => ({ label, role, accelerator, type, visible, submenu: submenu ? describe(submenu) : undefined }))
export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: (menu) => report('Menu.setApplicationMenu', { template: describe(menu.template) }),
}

export const dialog = {
  showMessageBox: async (...args) => (report('dialog.showMessageBox', { options: args.at(-1) }), { response: 0 }),
}

export const autoUpdater = new EventEmitter()

// The test's side: call a handler as a renderer frame at `url` would, or quit the app
// and, in the same tick, call `probe` (a window still polling while the app quits).
process.on('message', async (msg) => {
  if (msg.kind === 'invoke') {
    const handler = handlers.get(msg.channel)
    const event = { senderFrame: { parent: null, url: msg.url } }
    const value = handler ? await handler(event, msg.input) : { ok: false, error: { code: 'NoHandler' } }
    process.send?.({ kind: 'result', id: msg.id, value })
  } else if (msg.kind === 'quit') {
    app.quit()
    if (msg.probe) {
      const value = await handlers.get(msg.probe)({ senderFrame: { parent: null, url: msg.url } }, {})
      report('probe', { channel: msg.probe, value })
    }
  }
})

export default { app, BrowserWindow, ipcMain, shell, session, Menu, dialog, autoUpdater }
