import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db.js'
import type { ActionHandler, OutboxClock } from '../../src/main/core/outbox/outbox.js'
import { ACTIONS, payloadSchema } from '../../src/main/core/actions/registry.js'
import type { ActionKind } from '../../src/main/core/queue/organizer-actions.js'
import { undoCancelled } from '../../src/main/core/queue/cancel-effects.js'

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

/**
 * Outbox handlers for the real kinds (their stored-payload schemas, their cached-effect
 * undo) with a fake send: `sent` records who each action was about (its payload's `did`,
 * else its order), `state.fail` makes a send throw, `state.hold` keeps one in flight.
 */
export function fakeActionHandlers(kinds: ActionKind[], conflicts: Record<string, string> = {}) {
  const sent: (string | number)[] = []
  const state: { fail?: () => unknown; hold?: Promise<void> } = {}
  const handler = (kind: ActionKind): ActionHandler => ({
    schema: payloadSchema(kind),
    conflicts,
    async send(_group, payload) {
      await state.hold
      const err = state.fail?.()
      if (err) throw err
      sent.push((payload as { did?: string }).did ?? sent.length + 1)
    },
    undoCache: (tx, groupDid, _payload, id) => undoCancelled(tx, groupDid, ACTIONS[kind].undo, id),
  })
  return { sent, state, handlers: Object.fromEntries(kinds.map((k) => [k, handler(k)])) }
}
