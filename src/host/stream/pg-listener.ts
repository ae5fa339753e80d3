import pg from 'pg'
import type { Logger } from 'pino'
import { CHANGES_CHANNEL } from './log-signals.js'

const FIRST_RETRY_MS = 500
const LAST_RETRY_MS = 30_000

/**
 * One PostgreSQL connection per host process that LISTENs for change-log writes made by
 * any process (./log-signals.ts) and calls `onChange` for each: no broker besides the
 * database. A connection that drops is made again, with growing pauses, and `onChange`
 * is called once it is back, since notifications sent meanwhile were lost.
 */
export function listenForChanges(url: string, onChange: () => void, logger: Logger): { close(): Promise<void> } {
  let client: pg.Client | undefined
  let closed = false
  let retryIn = FIRST_RETRY_MS
  let timer: NodeJS.Timeout | undefined

  const again = (err?: unknown) => {
    if (closed || timer) return
    if (err) logger.warn({ err }, `change stream: the LISTEN connection failed; connecting again in ${retryIn} ms`)
    const old = client
    client = undefined
    old?.removeAllListeners()
    old?.on('error', () => {})
    void old?.end().catch(() => {})
    timer = setTimeout(() => {
      timer = undefined
      void connect()
    }, retryIn)
    timer.unref()
    retryIn = Math.min(retryIn * 2, LAST_RETRY_MS)
  }

  const connect = async () => {
    if (closed) return
    const c = new pg.Client({ connectionString: url })
    client = c
    c.on('notification', (msg) => {
      if (msg.channel === CHANGES_CHANNEL) onChange()
    })
    c.on('error', (err) => again(err))
    c.on('end', () => again(new Error('connection ended')))
    try {
      await c.connect()
      await c.query(`LISTEN ${CHANGES_CHANNEL}`)
      retryIn = FIRST_RETRY_MS
      onChange()
    } catch (err) {
      if (client === c) again(err)
    }
  }

  void connect()
  return {
    async close() {
      closed = true
      clearTimeout(timer)
      const c = client
      client = undefined
      c?.removeAllListeners()
      c?.on('error', () => {})
      await c?.end().catch(() => {})
    },
  }
}
