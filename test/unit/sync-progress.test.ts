import { describe, expect, it } from 'vitest'
import { SyncProgress } from '../../src/main/core/sync/sync-progress'
import { allPages } from '../../src/main/core/xrpc/host-pages'
import { XrpcCallError } from '../../src/main/core/xrpc/xrpc-error'

const A = 'did:plc:account'

describe('sync progress', () => {
  it('follows a pass group by group: waiting, reading with a running count, then done or unchanged', async () => {
    const progress = new SyncProgress()
    progress.plan([
      { accountDid: A, groupDid: 'did:plc:g1' },
      { accountDid: A, groupDid: 'did:plc:g2' },
    ])
    expect(progress.status()).toMatchObject({ running: true, groups: [{ phase: 'waiting' }, { phase: 'waiting' }] })
    let midway: unknown
    await progress.track(A, 'did:plc:g1', async (report) => {
      report.phase('reading')
      report.read(100)
      report.read(100)
      midway = progress.status().groups[0]
      report.phase('saving')
    })
    expect(midway).toMatchObject({ phase: 'reading', itemsRead: 200 })
    expect(progress.status()).toMatchObject({ running: true, groups: [{ phase: 'done', itemsRead: 200 }, { phase: 'waiting' }] })
    await progress.track(A, 'did:plc:g2', async (report) => report.unchanged())
    const done = progress.status()
    expect(done.running).toBe(false)
    expect(done.groups[1]).toMatchObject({ phase: 'unchanged', error: null })
    expect(done.groups[1]!.finishedAt).not.toBeNull()
  })

  it('says in plain words why a group could not be synced, and passes the error on', async () => {
    const progress = new SyncProgress()
    const unreachable = new XrpcCallError('example.groups.getGroup', 0, 'HostUnreachable', 'connect ECONNREFUSED 127.0.0.1:1234')
    await expect(progress.track(A, 'did:plc:g1', async () => Promise.reject(unreachable))).rejects.toBe(unreachable)
    const forbidden = new XrpcCallError('example.groups.getGroup', 403, 'Forbidden', 'nope')
    await expect(progress.track(A, 'did:plc:g2', async () => Promise.reject(forbidden))).rejects.toBe(forbidden)
    const [a, b] = progress.status().groups
    expect(a).toMatchObject({ phase: 'failed', error: 'Could not reach the group’s host. Showing what was last seen.' })
    expect(b!.phase).toBe('failed')
    expect(b!.error).not.toContain('nope')
    expect(b!.error).not.toBe('')
  })
})

describe('reading every page of a list', () => {
  it('reads past 10,000 items and counts each page', async () => {
    const counts: number[] = []
    const items = await allPages(
      async (cursor) => {
        const at = Number(cursor ?? 0)
        return { items: Array.from({ length: 100 }, (_, i) => at + i), cursor: at + 100 < 25_000 ? String(at + 100) : undefined }
      },
      (n) => counts.push(n),
    )
    expect(items).toHaveLength(25_000)
    expect(items.at(-1)).toBe(24_999)
    expect(counts).toHaveLength(250)
  })

  it('reads on past an empty page that still carries a cursor (a page the host filtered)', async () => {
    const pages: Record<string, { items: number[]; cursor?: string }> = { start: { items: [], cursor: 'b' }, b: { items: [], cursor: 'c' }, c: { items: [7] } }
    expect(await allPages(async (cursor) => pages[cursor ?? 'start']!)).toEqual([7])
  })

  it('stops when a host hands back a cursor it gave before', async () => {
    let calls = 0
    const items = await allPages(async () => {
      calls++
      return { items: [calls], cursor: calls % 2 ? 'a' : 'b' }
    })
    expect(calls).toBe(3)
    expect(items).toEqual([1, 2, 3])
  })
})
