import type { BrowserWindow } from 'electron'

/** Shows a window in front, restoring it first if it was minimized (a click on one of our notifications, a second launch). */
export function raiseWindow(win: Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus'> | undefined) {
  if (!win) return
  if (win.isMinimized()) win.restore()
  win.show()
  win.focus()
}
