import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, shell } from 'electron'
import { createCore } from '../core/app-core.js'
import { loadLocalNetwork, keychainService, liveUpdatesWanted } from '../core/network.js'
import { KeychainSecretStore } from '../core/secrets/keychain-secret-store.js'
import { installSecurityGuards } from './security.js'
import { forwardNotices, wireIpc } from './ipc.js'
import { callLog } from '../core/ipc/dispatch.js'
import { createMainWindow } from './window.js'
import { raiseWindow } from './raise-window.js'
import { installMenu } from './menu.js'
import { holdQuitUntilClosed } from '../core/lifecycle/hold-quit.js'
import { electronLogSink } from './log.js'
import { errorFields, installLogSink, log } from '../core/log/log.js'

// electron-vite sets this in `dev`; a packaged app always loads its own files.
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL ?? null : null
const rendererFile = path.join(import.meta.dirname, '../renderer/index.html')
const rendererOrigin = devServerUrl ? new URL(devServerUrl).origin : null

const isAppUrl = (url: string) => {
  try {
    if (rendererOrigin) return new URL(url).origin === rendererOrigin
    return url.split('#')[0] === pathToFileURL(rendererFile).href
  } catch {
    return false
  }
}

if (!app.requestSingleInstanceLock()) app.quit()

app.whenReady().then(async () => {
  installSecurityGuards(isAppUrl, !!devServerUrl)
  const logFolder = app.getPath('logs')
  installLogSink(electronLogSink(logFolder, { console: !app.isPackaged }))
  const core = await createCore({
    version: app.getVersion(),
    shell: 'electron',
    network: loadLocalNetwork(process.env.CONVENE_STACK_FILE),
    secrets: new KeychainSecretStore(keychainService()),
    dataDir: process.env.CONVENE_DATA_DIR || app.getPath('userData'),
    liveUpdates: liveUpdatesWanted(),
    // Sign-in pages open in the person's own browser (RFC 8252), never in our window.
    openUrl: (url) => shell.openExternal(url),
    raiseWindow: () => raiseWindow(BrowserWindow.getAllWindows()[0]),
    // Only the installed app updates itself (a development run has no release feed);
    // loaded on demand so development runs never touch electron-updater.
    updater: app.isPackaged ? (await import('./updater.js')).electronUpdaterPort() : undefined,
    logFolder,
    // shell.openPath answers with an error message ('' when it opened).
    openFolder: async (folder) => {
      const failed = await shell.openPath(folder)
      if (failed) throw new Error(failed)
    },
  })
  // Registered first thing after the core exists: from here a quit waits for it to close.
  holdQuitUntilClosed(app, () => core.close())
  // Help > Open Log Folder does what the window's button does (app.openLogFolder).
  const openLogFolder = () => void core.handlers['app.openLogFolder']({}).catch((err: unknown) => log.warn('logs', 'could not open the log folder', errorFields(err)))
  installMenu(!!devServerUrl, openLogFolder)
  wireIpc(core.handlers, isAppUrl)
  // The e2e suite reads which calls reached the core from here (e2e/support/fixtures.ts).
  if (process.env.CONVENE_CALL_LOG === 'on') Object.assign(globalThis, { conveneCallLog: callLog(core.handlers) })
  forwardNotices(core.notices, isAppUrl)
  // What waits on Today, on the dock or taskbar icon (the loopback shell has only the window title).
  core.groups.today.onWaiting((waiting) => app.setBadgeCount(waiting))
  createMainWindow(devServerUrl, rendererFile)
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow(devServerUrl, rendererFile)
  })
  app.on('second-instance', () => raiseWindow(BrowserWindow.getAllWindows()[0]))
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
