import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../support/local-network.js'
import { StreamClient } from '../support/change-stream.js'

/**
 * The change stream across host processes on one PostgreSQL database (issue 23): a
 * change written through any process reaches subscribers on every other (LISTEN/NOTIFY,
 * no broker), and a cursor from one process resumes on another. Under concurrent writes
 * to several groups through both processes, whose seqs may commit out of order, every
 * subscriber still gets each entry once, in log order. Runs in the PostgreSQL run of
 * `npm test` (vitest.postgres.config.ts).
 */
const net = useLocalNetwork({ hostProcesses: 2 })
const as = net.caller
const groups = () => [net.group('open').did, net.group('approval').did, net.group('invite').did]
let a: string
let b: string

beforeAll(() => {
  ;[a, b] = net.running.hostProcessUrls() as [string, string]
})

const streams: StreamClient[] = []
const stream = async (name: Parameters<typeof net.as>[0], at: string, params: { cursor?: string; groups?: string[] } = {}) => {
  const s = await StreamClient.open(as(name), params, at)
  streams.push(s)
  return s
}
afterEach(() => {
  for (const s of streams.splice(0)) s.terminate()
})

/** configureGroup as the owner, through one chosen process. */
async function configureAt(processUrl: string, group: string, description: string) {
  const res = await xrpc(processUrl, 'example.groups.configureGroup', {
    body: { group, description },
    headers: { authorization: `Bearer ${await as('owner').serviceAuth('example.groups.configureGroup')}` },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

async function log(group: string, cursor?: string) {
  const res = await as('owner').call<{ changes: { seq: number; kind: string; subject?: string; createdAt: string }[]; cursor: string }>('example.groups.listChanges', {
    params: { group, cursor, limit: 100 },
  })
  expect(res.status).toBe(200)
  return res.body
}

describe('the change stream over several host processes', () => {
  it('a change written through one process reaches a subscriber on the other', async () => {
    const [group] = groups() as [string]
    const onB = await stream('admin', b)
    await configureAt(a, group, 'written through A')
    const got = await onB.change((c) => c.group === group && c.change.kind === 'group.configured')
    expect((await log(group)).changes).toContainEqual(got.change)
  })

  it('a cursor from one process resumes on the other, losing nothing', async () => {
    const [group] = groups() as [string]
    const onA = await stream('owner', a, { groups: [group] })
    await configureAt(b, group, 'seen on A')
    const seen = await onA.change((c) => c.change.kind === 'group.configured')
    onA.close()
    await onA.closed
    await configureAt(a, group, 'missed 1')
    await configureAt(b, group, 'missed 2')
    const onB = await stream('owner', b, { groups: [group], cursor: seen.cursor })
    await onB.until((frames) => frames.length >= 2, 5_000, 'both missed changes')
    expect(onB.changes().map((c) => c.change)).toEqual((await log(group, seen.cursor)).changes)
  })

  it('under concurrent writes to several groups through both processes, each entry arrives once, in log order', async () => {
    const starts = await Promise.all(groups().map(async (g) => (await log(g)).cursor))
    const onA = await stream('owner', a)
    const onB = await stream('owner', b)
    const writes = Array.from({ length: 45 }, (_, i) => configureAt(i % 2 ? a : b, groups()[i % 3]!, `burst ${i}`))
    await Promise.all(writes)
    const expected = (await Promise.all(groups().map(async (g, i) => (await log(g, starts[i])).changes.map((c) => ({ group: g, seq: c.seq })))))
      .flat()
      .sort((x, y) => x.seq - y.seq)
    expect(expected).toHaveLength(45)
    for (const s of [onA, onB]) {
      await s.until(() => s.changes().length >= 45, 10_000, 'all 45 changes')
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(s.changes().map((c) => ({ group: c.group, seq: c.change.seq }))).toEqual(expected)
    }
  })
})
