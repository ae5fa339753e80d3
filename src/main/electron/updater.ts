import electronUpdater from 'electron-updater'
import type { Updater, UpdaterEvent } from '../core/updates/updater.js'

/**
 * electron-updater behind the core's `Updater` port. The feed is the GitHub Releases
 * named by electron-builder.yml's `publish` (written into the packaged app-update.yml).
 *
 * Signatures: electron-updater checks every download's sha512 against the release's
 * latest*.yml, and on Windows the installer's Authenticode publisher against the
 * signing certificate of the running app; on macOS Squirrel.Mac refuses an update not
 * signed by the same team. Nothing here may turn that off: never set
 * `verifyUpdateCodeSignature`, `forceDevUpdateConfig`, `allowDowngrade` or a custom
 * `requestHeaders`/provider that skips checks.
 */
export function electronUpdaterPort(): Updater {
  const { autoUpdater } = electronUpdater
  // The core decides when to download (after a check) and when to restart (never while
  // changes wait to be sent). Installing when the person quits is fine: the quit is held
  // until the core has closed (hold-quit.ts).
  autoUpdater.autoDownload = false
  autoUpdater.autoInstallOnAppQuit = true
  return {
    checkForUpdates: async () => {
      await autoUpdater.checkForUpdates()
    },
    downloadUpdate: async () => {
      await autoUpdater.downloadUpdate()
    },
    quitAndInstall: () => autoUpdater.quitAndInstall(),
    onEvent(listener: (e: UpdaterEvent) => void) {
      autoUpdater.on('update-available', (info) => listener({ kind: 'available', version: info.version }))
      autoUpdater.on('update-not-available', () => listener({ kind: 'none' }))
      autoUpdater.on('update-downloaded', (info) => listener({ kind: 'downloaded', version: info.version }))
      autoUpdater.on('error', (error) => listener({ kind: 'error', error }))
    },
  }
}
