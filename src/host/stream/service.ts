import type { IncomingMessage } from 'node:http'
import { ErrorFrame, XRPCError, type ErrorFrameBody } from '@atproto/xrpc-server'
import type { Logger } from 'pino'
import type { HostDb } from '../db/index.js'
import { isPostgres } from '../db/dialect.js'
import type { GroupLookup } from '../groups/access.js'
import { ChangeFeed } from './feed.js'
import { StreamConnections } from './connections.js'
import { Firehose, type RepoStreamMessage } from '../repo/firehose.js'
import { onChangeWritten } from './log-signals.js'
import { listenForChanges } from './pg-listener.js'
import { streamChanges, type StreamMessage, type StreamRequest } from './subscription.js'
import type { HandlerError } from '../../node/lexicon/types/example/groups/subscribeChanges.js'
import type { StreamLimits } from './stream-limits.js'
import { DATABASE_BUSY_MESSAGE, isDatabaseBusy, serviceUnavailable } from '../unavailable.js'

/** A wake-up now and then whatever the signals say: a missed one costs at most this much delay. */
const SAFETY_READ_MS = 10_000

/**
 * The streams of one host process (docs/host.md, "The change stream"): the change feed
 * reading the log, woken by this process's writes (SQLite) or by every process's
 * NOTIFY (PostgreSQL), the public firehose's one reader, and the open streams of both,
 * admitted and watched alike (./connections.ts).
 */
export class ChangeStreams {
  private constructor(
    readonly feed: ChangeFeed,
    readonly firehose: Firehose,
    readonly connections: StreamConnections,
    private readonly stopWaking: () => Promise<void>,
  ) {}

  static async start(db: HostDb, opts: { limits: StreamLimits; logger: Logger; postgresUrl?: string }): Promise<ChangeStreams> {
    const connections = new StreamConnections(opts.limits, opts.logger)
    const feed = await ChangeFeed.open(db, { window: opts.limits.window, logger: opts.logger, inUse: () => connections.count > 0 })
    const firehose = await Firehose.open(db)
    const wake = () => feed.wake()
    const listener = isPostgres(db) && opts.postgresUrl ? listenForChanges(opts.postgresUrl, wake, opts.logger) : undefined
    const unsubscribe = isPostgres(db) ? () => {} : onChangeWritten(wake)
    const timer = setInterval(wake, SAFETY_READ_MS)
    timer.unref()
    const stopWaking = async () => {
      firehose.close()
      clearInterval(timer)
      unsubscribe()
      await listener?.close()
    }
    return new ChangeStreams(feed, firehose, connections, stopWaking)
  }

  /**
   * The stream for an upgrade request this process admitted (./upgrade.ts). A failure
   * once it is under way (the database busy or gone) ends it with an error frame that
   * names the cursor to resume from, as a slow client's does.
   */
  async *subscribe(ctx: GroupLookup & { logger: Logger }, req: IncomingMessage, request: Omit<StreamRequest, 'caller'>, signal: AbortSignal): AsyncGenerator<StreamMessage | HandlerError> {
    const conn = this.connections.of(req)
    if (!conn) throw new Error('a change stream without an admitted upgrade')
    const stop = AbortSignal.any([signal, conn.stop.signal])
    try {
      yield* streamChanges(ctx, this.feed, { ...request, caller: conn.caller }, conn, stop)
    } catch (err) {
      if (stop.aborted) return
      if (!(err instanceof XRPCError) && !isDatabaseBusy(err)) ctx.logger.error({ err, caller: conn.caller }, 'change stream failed')
      const { body } = ErrorFrame.fromError(isDatabaseBusy(err) ? serviceUnavailable(DATABASE_BUSY_MESSAGE) : err)
      // Not only the lexicon's names: a failure is as XRPC names it (ServiceUnavailable, InternalServerError).
      yield new ErrorFrame({ ...body, ...(conn.cursor ? { cursor: conn.cursor } : {}) } as ErrorFrameBody) as HandlerError
    }
  }

  /**
   * The public firehose for an upgrade request this process admitted (./upgrade.ts),
   * ended when the watchdog ends it (too slow, no answer to a ping, the host stopping).
   */
  async *subscribeRepos(req: IncomingMessage, cursor: number | undefined, signal: AbortSignal): AsyncGenerator<RepoStreamMessage> {
    const conn = this.connections.of(req)
    if (!conn) throw new Error('a firehose stream without an admitted upgrade')
    yield* this.firehose.stream(cursor, conn, AbortSignal.any([signal, conn.stop.signal]))
  }

  /** Who the upgrade request's service auth named, checked before the upgrade. */
  callerOf(req: IncomingMessage): string | undefined {
    return this.connections.of(req)?.caller
  }

  async close(): Promise<void> {
    this.connections.closeAll()
    this.feed.close()
    await this.stopWaking()
  }
}
