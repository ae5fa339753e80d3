import { sql } from 'kysely'
import type { HostDb } from '../db/index.js'
import { windowOf, type CounterStore, type WindowCount } from './window-counter.js'

const SWEEP_EVERY_MS = 60_000

/**
 * Rate-limit counters in the database (issue 18): with several host processes on one
 * PostgreSQL database, a caller's limit is one count, whichever process answers. One
 * upsert per hit counts and reads atomically: a row whose window has ended starts again
 * at this hit's points. Windows are aligned to the clock (window-counter.ts), so every
 * process agrees on where one ends. Ended windows are swept once a minute per process.
 */
export class DbCounterStore implements CounterStore {
  private lastSweep = 0

  constructor(
    private readonly db: HostDb,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string, points: number, windowMs: number): Promise<WindowCount> {
    const now = this.now()
    const resetAt = windowOf(now, windowMs) + windowMs
    void this.sweep(now)
    const row = await this.db
      .insertInto('rate_counter')
      .values({ key, resetAt, count: points })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          count: eb
            .case()
            .when('rate_counter.resetAt', '=', eb.ref('excluded.resetAt'))
            .then(sql<number>`${sql.ref('rate_counter.count')} + ${sql.ref('excluded.count')}`)
            .else(eb.ref('excluded.count'))
            .end(),
          resetAt: eb.ref('excluded.resetAt'),
        })),
      )
      .returning(['count', 'resetAt'])
      .executeTakeFirstOrThrow()
    return { count: Number(row.count), resetAt: Number(row.resetAt) }
  }

  async peek(key: string, windowMs: number): Promise<WindowCount> {
    const resetAt = windowOf(this.now(), windowMs) + windowMs
    const row = await this.db.selectFrom('rate_counter').select('count').where('key', '=', key).where('resetAt', '=', resetAt).executeTakeFirst()
    return { count: row ? Number(row.count) : 0, resetAt }
  }

  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return
    this.lastSweep = now
    await this.db
      .deleteFrom('rate_counter')
      .where('resetAt', '<=', now)
      .execute()
      .catch(() => {}) // a sweep that fails is retried a minute later; counting goes on
  }

  close() {}
}
