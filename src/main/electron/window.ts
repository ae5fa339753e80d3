import path from 'node:path'
import { BrowserWindow } from 'electron'

/** The main window: sandboxed, isolated, no Node in the page. */
export function createMainWindow(rendererUrl: string | null, rendererFile: string) {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    show: false,
    title: 'Convene',
    webPreferences: {
      preload: path.join(import.meta.dirname, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webviewTag: false,
      webSecurity: true,
      spellcheck: true,
    },
  })
  win.once('ready-to-show', () => win.show())
  if (rendererUrl) void win.loadURL(rendererUrl)
  else void win.loadFile(rendererFile)
  return win
}
