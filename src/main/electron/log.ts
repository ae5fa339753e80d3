import path from 'node:path'
import log from 'electron-log/main'
import type { LogSink } from '../core/log/log.js'
import { LOG_FILE_NAME, rotateLogFiles } from '../core/log/file-sink.js'

/**
 * The installed app's log: electron-log's file transport writing the core's censored
 * JSON lines as they are (`{text}`), in the OS log folder (`app.getPath('logs')`:
 * ~/Library/Logs/Convene on macOS, %APPDATA%\Convene\logs on Windows,
 * ~/.config/Convene/logs on Linux), rotated past 1 MB keeping three old files.
 */
export function electronLogSink(folder: string, opts: { console: boolean }): LogSink {
  const file = log.transports.file
  file.resolvePathFn = () => path.join(folder, LOG_FILE_NAME)
  file.format = '{text}'
  file.maxSize = 1024 * 1024
  // electron-log keeps one old file; the core's rotation keeps a few (same as the loopback shell's).
  file.archiveLogFn = (old) => rotateLogFiles(old.path, 3)
  log.transports.console.level = opts.console ? 'silly' : false
  log.transports.console.format = '{text}'
  return { write: (line, level) => log[level](line) }
}
