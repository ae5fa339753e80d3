import { contextBridge, ipcRenderer } from 'electron'
import { createApi } from '../shared/ipc/api.js'
import type { IpcEnvelope } from '../shared/ipc/envelope.js'

// Exactly the contract, nothing else: no raw ipcRenderer, no Node.
contextBridge.exposeInMainWorld(
  'convene',
  createApi((channel, input) => ipcRenderer.invoke(channel, input) as Promise<IpcEnvelope<unknown>>),
)
