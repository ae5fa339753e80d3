import { beforeEach, describe, expect, it } from 'vitest'
import type { HostDb } from '../../../src/host/db/index.js'
import { useOwnHostDb } from '../../support/own-host-db.js'
import { pruneChangeLog, pruneFirehoseLog } from '../../../src/host/change-log-retention.js'
import { Firehose } from '../../../src/host/repo/firehose.js'
import { cborEncode } from '@atproto/lex-cbor'

/**
 * How the change log is pruned, on a log too long to write through the API
 * (change-log-retention.test.ts shows the rule over HTTP): in batches until done, only
 * ever from the start, never the newest entry, and harmlessly twice at once. Through the
 * host's own database layer (SQLite's group commit, or PostgreSQL in the PostgreSQL run).
 */
const DAY_MS = 86_400_000
const GROUP = 'did:plc:prunedlog'
let db: HostDb
useOwnHostDb({}, (opened) => (db = opened))
beforeEach(async () => {
  await db.deleteFrom('change').execute()
})

const now = Date.now()
const daysAgo = (days: number) => new Date(now - days * DAY_MS).toISOString()
/** Appends entries with these ages (in days), oldest `seq` first; returns their `seq`s. */
async function append(ages: number[]): Promise<number[]> {
  const seqs: number[] = []
  for (let i = 0; i < ages.length; i += 1000) {
    const rows = ages.slice(i, i + 1000).map((age, j) => ({ groupDid: GROUP, kind: 'group.configured', subject: String(i + j), createdAt: daysAgo(age) }))
    const inserted = await db.insertInto('change').values(rows as never).returning('seq').execute()
    seqs.push(...inserted.map((r) => Number(r.seq)))
  }
  return seqs
}
const kept = async () => (await db.selectFrom('change').select('seq').orderBy('seq').execute()).map((r) => Number(r.seq))

describe('pruning the change log', () => {
  it('deletes every entry past the retention in batches, from the start, up to the first one young enough to keep', async () => {
    const old = await append(Array(12_001).fill(40))
    // Then a young entry, and an old one after it (written by a process whose clock is behind).
    const after = await append([1, 40, 2])
    expect(await pruneChangeLog(db, 30 * DAY_MS, { now })).toBe(old.length)
    expect(await kept()).toEqual(after)
    expect(await pruneChangeLog(db, 30 * DAY_MS, { now })).toBe(0)
  })

  it('never deletes the newest entry, however old', async () => {
    const seqs = await append([50, 45, 40])
    expect(await pruneChangeLog(db, 30 * DAY_MS, { now })).toBe(2)
    expect(await kept()).toEqual([seqs[2]])
    expect(await pruneChangeLog(db, 30 * DAY_MS, { now })).toBe(0)
    expect(await kept()).toEqual([seqs[2]])
  })

  it('runs twice at once without harm: each entry deleted once, the same ones kept', async () => {
    const old = await append(Array(11_000).fill(40))
    const young = await append([3, 2, 1])
    const deleted = await Promise.all([pruneChangeLog(db, 30 * DAY_MS, { now }), pruneChangeLog(db, 30 * DAY_MS, { now })])
    expect(deleted[0] + deleted[1]).toBe(old.length)
    expect(await kept()).toEqual(young)
  })

  it('stops between batches when asked (the host is closing)', async () => {
    await append(Array(12_000).fill(40))
    await append([1])
    let batches = 0
    const deleted = await pruneChangeLog(db, 30 * DAY_MS, { now, stopped: () => batches++ > 0 })
    expect(deleted).toBe(5_000)
  })
})

describe('pruning the firehose’s log (issue 35 point 3)', () => {
  /** Appends `#commit` frames with these ages (in days); returns their `seq`s. */
  async function frames(ages: number[]): Promise<number[]> {
    const rows = ages.map((age, i) => ({ groupDid: GROUP, rev: `3k${String(i).padStart(11, '2')}`, frame: Buffer.from(cborEncode({ repo: GROUP, ops: [], time: daysAgo(age) } as never)), time: daysAgo(age) }))
    return (await db.insertInto('repo_event').values(rows).returning('seq').execute()).map((r) => Number(r.seq))
  }

  it('keeps frames as long as the change log, from the start only; a consumer behind it is told OutdatedCursor and goes on from the oldest kept', async () => {
    const [first, ...old] = await frames([40, 40, 40])
    const young = await frames([2, 1])
    expect(await pruneFirehoseLog(db, 30 * DAY_MS, { now })).toBe(1 + old.length)
    expect((await db.selectFrom('repo_event').select('seq').orderBy('seq').execute()).map((r) => Number(r.seq))).toEqual(young)

    const firehose = await Firehose.open(db)
    const stop = new AbortController()
    const got: unknown[] = []
    try {
      for await (const message of firehose.stream(first, { cursor: '', sendingSince: 0 }, stop.signal)) {
        got.push(message.$type === 'com.atproto.sync.subscribeRepos#info' ? message.name : message.seq)
        if (got.length === 3) break
      }
      // A cursor the log still covers is not outdated.
      const fresh = firehose.stream(young[0], { cursor: '', sendingSince: 0 }, stop.signal)
      expect(((await fresh.next()).value as { seq: number }).seq).toBe(young[1])
      await fresh.return(undefined)
    } finally {
      stop.abort()
      firehose.close()
    }
    expect(got).toEqual(['OutdatedCursor', ...young])
  })
})
