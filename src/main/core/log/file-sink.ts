import fs from 'node:fs'
import path from 'node:path'
import type { LogSink } from './log.js'

export const LOG_FILE_NAME = 'convene.log'

/**
 * Size-based rotation: convene.log → convene.1.log → … → convene.<keep>.log, the oldest
 * dropped. Shared with the Electron shell's electron-log file (its archive step).
 */
export function rotateLogFiles(file: string, keep: number): void {
  const { dir, name, ext } = path.parse(file)
  const numbered = (n: number) => path.join(dir, `${name}.${n}${ext}`)
  fs.rmSync(numbered(keep), { force: true })
  for (let n = keep - 1; n >= 1; n--) {
    if (fs.existsSync(numbered(n))) fs.renameSync(numbered(n), numbered(n + 1))
  }
  if (keep >= 1 && fs.existsSync(file)) fs.renameSync(file, numbered(1))
  else fs.rmSync(file, { force: true })
}

/**
 * The loopback shell's (and plain Node's) log: `<folder>/convene.log`, JSON lines,
 * rotated past `maxBytes`. Writes are synchronous: lines are few, and a line written
 * just before a crash is the one that explains it.
 */
export function fileLogSink(folder: string, opts: { maxBytes?: number; keep?: number; echo?: boolean } = {}): LogSink & { file: string } {
  const maxBytes = opts.maxBytes ?? 1024 * 1024
  const keep = opts.keep ?? 3
  const file = path.join(folder, LOG_FILE_NAME)
  fs.mkdirSync(folder, { recursive: true })
  let size = fs.existsSync(file) ? fs.statSync(file).size : 0
  return {
    file,
    write(line, level) {
      const bytes = Buffer.byteLength(line) + 1
      if (size > 0 && size + bytes > maxBytes) {
        rotateLogFiles(file, keep)
        size = 0
      }
      try {
        fs.appendFileSync(file, `${line}\n`, { mode: 0o600 })
      } catch (err) {
        // The folder was removed under us (a cleaned data folder): make it again, once.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
        fs.mkdirSync(folder, { recursive: true })
        fs.appendFileSync(file, `${line}\n`, { mode: 0o600 })
        size = 0
      }
      size += bytes
      if (opts.echo) (level === 'info' ? console.log : console.error)(line)
    },
  }
}
