import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { createApi } from '../shared/ipc/api.js'
import { NOTICE_CHANNEL, parseNotice, type Notice } from '../shared/ipc/contract.js'
import type { IpcEnvelope } from '../shared/ipc/envelope.js'

// Exactly the contract, nothing else: no raw ipcRenderer, no Node. Notices arrive on the
// one notice channel and reach the page only as parsed contract notices.
contextBridge.exposeInMainWorld(
  'convene',
  createApi(
    (channel, input) => ipcRenderer.invoke(channel, input) as Promise<IpcEnvelope<unknown>>,
    (listener) => {
      const onNotice = (_event: IpcRendererEvent, raw: unknown) => {
        const notice: Notice | null = parseNotice(raw)
        if (notice) listener(notice)
      }
      ipcRenderer.on(NOTICE_CHANNEL, onNotice)
      return () => void ipcRenderer.removeListener(NOTICE_CHANNEL, onNotice)
    },
  ),
)
