import { afterEach, describe, expect, it, vi } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { StreamClient } from '../../support/change-stream.js'
import { changeLogSeqs } from '../../support/host-db.js'

/**
 * The change log is bounded (issue 22): the host keeps an entry for --change-log-days
 * and prunes older ones on a timer, never its newest entry. A cursor from before what it
 * keeps is refused by listChanges (400 InvalidRequest: read the group whole) and told
 * OutdatedCursor by the stream; a call without a cursor starts at the oldest entry kept.
 * Here the host keeps its log for 3 seconds. Runs on SQLite, and on PostgreSQL in the
 * PostgreSQL run.
 */
const KEEP_S = 3
const net = useLocalNetwork({ hostChangeLogDays: KEEP_S / 86_400 })
const as = net.caller
const open = () => net.group('open').did
const approval = () => net.group('approval').did

interface Entry {
  seq: number
  kind: string
  subject?: string
  createdAt: string
}
const listChanges = (group: string, cursor?: string) =>
  as('member').call<{ changes: Entry[]; cursor: string; error?: string; message?: string }>('example.groups.listChanges', { params: { group, cursor, limit: 100 } })
async function log(group: string, cursor?: string): Promise<{ changes: Entry[]; cursor: string }> {
  const res = await listChanges(group, cursor)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}
const configure = async (description: string) => {
  const res = await as('owner').call('example.groups.configureGroup', { body: { group: open(), description } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}
/** Long enough for every entry written so far to age past what the host keeps. */
const ageEverything = () => new Promise((resolve) => setTimeout(resolve, (KEEP_S + 1) * 1000))
/** Waits until the host's log holds exactly these entries (pruning runs every 300 ms here). */
const logHoldsOnly = (seqs: () => number[]) => vi.waitFor(async () => expect(await changeLogSeqs(net.running)).toEqual(seqs()), { timeout: 10_000, interval: 100 })

const streams: StreamClient[] = []
afterEach(() => {
  for (const s of streams.splice(0)) s.terminate()
})

/**
 * Writes an entry, lets it age past what the host keeps, writes another, and waits until
 * the log holds only that one: what each test below starts from. Returns the cursors the
 * host gave (before the pruned entry; after it, just before the entry kept), the entries,
 * and what the log held once everything had aged, before the second write.
 */
async function writeAgeAndPrune() {
  const before = (await log(open())).cursor
  await configure('old news')
  const page = await log(open(), before)
  const old = page.changes[0]!
  await ageEverything()
  const keptOnceAged = await changeLogSeqs(net.running)
  await configure('news')
  const latest = (await log(open(), page.cursor)).changes
  const newest = latest.at(-1)!
  await logHoldsOnly(() => [newest.seq])
  return { before, afterOld: page.cursor, old, keptOnceAged, latest, newest }
}

describe('the change log is kept for --change-log-days', () => {
  it('deletes entries past it once newer ones are written, and refuses a cursor from before what it keeps', async () => {
    const { before, afterOld, old, keptOnceAged, latest, newest } = await writeAgeAndPrune()
    expect(old).toMatchObject({ kind: 'group.configured' })
    // Old as it was, the log's newest entry was still there; then everything older than
    // 3 seconds went: here, all but the new entry.
    expect(keptOnceAged).toEqual([old.seq])
    expect(latest.map((c) => c.kind)).toEqual(['group.configured'])

    // A cursor from before the oldest entry kept may have missed some: refused, saying why.
    const refused = await listChanges(open(), before)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe('InvalidRequest')
    expect(refused.body.message).toMatch(/older than this host keeps its change log \(3 seconds\).*read the group whole/)
    // One that missed nothing still works, although its own entry is gone.
    expect((await log(open(), afterOld)).changes).toEqual([newest])
    // Without a cursor: from the oldest entry kept, with a cursor that works.
    const fresh = await log(open())
    expect(fresh.changes).toEqual([newest])
    expect((await log(open(), fresh.cursor)).changes).toEqual([])
  })

  it('tells a stream resuming from before what it keeps OutdatedCursor, and one that missed nothing carries on', async () => {
    const { before, afterOld, newest } = await writeAgeAndPrune()
    const behind = await StreamClient.open(as('member'), { groups: [open()], cursor: before })
    streams.push(behind)
    await behind.until((frames) => frames.some((f) => f.t === '#info'), 5_000, 'the OutdatedCursor info')
    expect(behind.frames[0]).toMatchObject({ op: 1, t: '#info', body: { name: 'OutdatedCursor' } })
    // It goes on from the oldest entry kept.
    expect((await behind.change((c) => c.change.seq === newest.seq)).change).toEqual(newest)

    const current = await StreamClient.open(as('member'), { groups: [open()], cursor: afterOld })
    streams.push(current)
    await current.change((c) => c.change.seq === newest.seq)
    expect(current.frames.map((f) => f.t)).toEqual(['#change'])
  })

  it('keeps the newest entry however old, so where the log starts stays known', async () => {
    const { newest } = await writeAgeAndPrune()
    const newestCursor = (await log(open())).cursor
    await ageEverything()
    expect(await changeLogSeqs(net.running)).toEqual([newest.seq])
    expect((await log(open())).changes).toEqual([newest])
    expect((await log(open(), newestCursor)).changes).toEqual([])
  })

  it('gives a quiet group, whose entries are all gone, a cursor that keeps working as the log moves on', async () => {
    await writeAgeAndPrune()
    const newestCursor = (await log(open())).cursor
    // The seeded group's own entries went long ago.
    const quiet = await log(approval())
    expect(quiet.changes).toEqual([])
    expect((await log(approval(), quiet.cursor)).changes).toEqual([])
    // Another group's change, and the entry before it pruned: the quiet group's cursor missed nothing.
    await configure('more news')
    const { changes: [next] } = await log(open(), newestCursor)
    await logHoldsOnly(() => [next!.seq])
    expect((await log(approval(), quiet.cursor)).changes).toEqual([])
  })
})
