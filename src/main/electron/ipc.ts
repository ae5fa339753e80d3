import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron'
import { CHANNELS, NOTICE_CHANNEL } from '../../shared/ipc/contract.js'
import { dispatch, type Handlers } from '../core/ipc/dispatch.js'
import type { NoticeHub } from '../core/ipc/notices.js'

/**
 * One `ipcMain.handle` per contract channel. A call is served only when it comes from
 * the top frame of one of our windows showing one of our pages; anything else (an
 * iframe, a page navigated elsewhere) is refused.
 */
export function wireIpc(handlers: Handlers, isAppUrl: (url: string) => boolean) {
  const trusted = (event: IpcMainInvokeEvent) => {
    const frame = event.senderFrame
    return !!frame && frame.parent === null && isAppUrl(frame.url)
  }
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, (event, input: unknown) => {
      if (!trusted(event)) {
        return { ok: false, error: { code: 'Refused', message: 'This call did not come from a Convene window.' } }
      }
      return dispatch(handlers, channel, input)
    })
  }
}

/**
 * The core's change notices, sent to every window showing one of our pages (a window
 * navigated elsewhere, which the guards prevent anyway, hears nothing).
 */
export function forwardNotices(notices: NoticeHub, isAppUrl: (url: string) => boolean) {
  return notices.subscribe((notice) => {
    for (const win of BrowserWindow.getAllWindows()) {
      const contents = win.webContents
      if (!contents.isDestroyed() && isAppUrl(contents.getURL())) contents.send(NOTICE_CHANNEL, notice)
    }
  })
}
