import { redact, redactString } from './redact.js'

/**
 * The core's log: one JSON object per line ({time, level, scope, msg, …fields}), every
 * field censored (./redact.ts) before it reaches a sink. Each shell installs where lines
 * go: electron-log's file in the OS log folder (src/main/electron/log.ts), or a file in
 * the data folder (./file-sink.ts) in the loopback shell. Until then, the console.
 */
export type LogLevel = 'info' | 'warn' | 'error'

export interface LogSink {
  write(line: string, level: LogLevel): void
}

const consoleSink: LogSink = {
  write: (line, level) => (level === 'info' ? console.log(line) : console.error(line)),
}

let sink: LogSink = consoleSink

/** Where log lines go from now on (the shells call this once, at start); null: the console. */
export function installLogSink(next: LogSink | null): void {
  sink = next ?? consoleSink
}

/** The line written for one entry: what the log file holds, censored. */
export function formatLine(level: LogLevel, scope: string, msg: string, fields?: Record<string, unknown>, now = new Date()): string {
  const extra = fields ? (redact(fields) as Record<string, unknown>) : {}
  const base = { time: now.toISOString(), level, scope, msg: redactString(msg) }
  // A field named like one of these cannot pass for it (the base keeps its place and value).
  return JSON.stringify({ ...base, ...extra, ...base })
}

function write(level: LogLevel, scope: string, msg: string, fields?: Record<string, unknown>) {
  try {
    sink.write(formatLine(level, scope, msg, fields), level)
  } catch (err) {
    // A log that cannot be written must not take the action that logged down with it.
    console.error('[log] could not write:', (err as Error).message)
  }
}

/** `scope` names the part of the core (outbox, sync, accounts, core, …). */
export const log = {
  info: (scope: string, msg: string, fields?: Record<string, unknown>) => write('info', scope, msg, fields),
  warn: (scope: string, msg: string, fields?: Record<string, unknown>) => write('warn', scope, msg, fields),
  error: (scope: string, msg: string, fields?: Record<string, unknown>) => write('error', scope, msg, fields),
}

/** An error as log fields: its name and message (redacted), never the object's other members. */
export function errorFields(err: unknown, opts: { stack?: boolean } = {}): Record<string, unknown> {
  if (!(err instanceof Error)) return { error: String(err) }
  return {
    error: {
      name: err.name,
      message: err.message,
      ...(err.cause instanceof Error ? { cause: err.cause.message } : {}),
      ...(opts.stack && err.stack ? { stack: err.stack } : {}),
    },
  }
}
