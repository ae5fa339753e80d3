import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { CHANNELS } from '../../shared/ipc/contract.js'
import { dispatch, type Handlers } from '../core/ipc/dispatch.js'

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
