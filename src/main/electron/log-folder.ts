import { app, shell } from 'electron'

/** Opens the folder Electron keeps the app's logs in, in the system's file manager. */
export async function openLogFolder() {
  const error = await shell.openPath(app.getPath('logs'))
  if (error) console.error('[logs] could not open the log folder:', error)
}
