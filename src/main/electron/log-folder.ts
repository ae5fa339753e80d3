import { app, shell } from 'electron'
import { log } from '../core/log/log.js'

/** Opens the folder Electron keeps the app's logs in (the menu's Help entry), in the system's file manager. */
export async function openLogFolder() {
  const error = await shell.openPath(app.getPath('logs'))
  if (error) log.warn('logs', 'could not open the log folder', { reason: error })
}
