import { app, BrowserWindow, dialog, Menu } from 'electron'
import { aboutDetail, menuTemplate } from './menu-template.js'

/**
 * Sets the application menu and the About box's versions. `openLogFolder`: the core's
 * own (app.openLogFolder), the same the window's button uses.
 */
export function installMenu(isDev: boolean, openLogFolder: () => void) {
  const detail = aboutDetail(app.getVersion(), process.versions)
  // macOS (and Linux) show this in the About panel the menu's role 'about' opens.
  app.setAboutPanelOptions({ applicationName: 'Convene', applicationVersion: app.getVersion(), version: '', credits: detail })
  const showAbout = () => {
    const options = { type: 'info' as const, title: 'About Convene', message: 'Convene', detail, buttons: ['OK'] }
    const win = BrowserWindow.getFocusedWindow()
    void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options))
  }
  const template = menuTemplate({ platform: process.platform, isDev, openLogFolder, showAbout })
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}
