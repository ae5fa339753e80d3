import type { ReplayStore } from '@atproto/oauth-provider/verifier'
import type { HostDb } from '../db/index.js'

const PRUNE_EVERY_MS = 60_000

/**
 * `@atproto/oauth-provider`'s replay store (which proof ids were seen) kept in the host's
 * database, `dpop_jti`, on SQLite and PostgreSQL alike: a restart does not reopen the
 * replay window, and several host processes on one database see each other's ids. Each
 * id is kept for the time frame the library asks (a little longer than a nonce lives,
 * after which a replay is answered with a nonce challenge anyway); expired ones are
 * deleted at most once a minute.
 */
export class DatabaseReplayStore implements ReplayStore {
  private lastPrune = 0

  constructor(private readonly db: HostDb) {}

  async unique(namespace: string, nonce: string, timeFrame: number): Promise<boolean> {
    const now = Date.now()
    if (now - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = now
      await this.db.deleteFrom('dpop_jti').where('expiresAt', '<', Math.floor(now / 1000)).execute()
    }
    const res = await this.db
      .insertInto('dpop_jti')
      .values({ jti: `${namespace} ${nonce}`, expiresAt: Math.ceil((now + timeFrame) / 1000) })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst()
    return Number(res.numInsertedOrUpdatedRows) > 0
  }
}
