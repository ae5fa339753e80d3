import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db.js'
import type { OutboxClock } from '../../src/main/core/outbox/outbox.js'

/** Time that moves only when the test says; due timers run as it passes them. */
export class FakeClock implements OutboxClock {
  t = Date.parse('2026-11-25T12:00:00Z')
  private timers: { at: number; run: () => void; live: boolean }[] = []
  now = () => this.t
  random = () => 0.5
  setTimeout(run: () => void, ms: number) {
    const timer = { at: this.t + ms, run, live: true }
    this.timers.push(timer)
    return { cancel: () => void (timer.live = false) }
  }
  advance(ms: number) {
    this.t += ms
    for (const timer of this.timers.filter((x) => x.live && x.at <= this.t)) {
      timer.live = false
      timer.run()
    }
  }
}

/** An account's cache in a folder of its own, for a unit test of the outbox; `remove` deletes both. */
export async function tempCache(accountDid: string): Promise<{ dir: string; db: CacheDb; remove(db: CacheDb): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'))
  return {
    dir,
    db: await openCacheDb(dir, accountDid),
    async remove(db) {
      await db.destroy()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
