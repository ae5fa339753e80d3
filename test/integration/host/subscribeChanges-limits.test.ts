import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { FIREHOSE, StreamClient, SUBSCRIBE, type Refused } from '../../support/change-stream.js'
import { appendChanges } from '../../support/host-db.js'

/**
 * What one caller can cost with change streams (issue 23): open streams per account and
 * per address, refused on the upgrade in the PDS's 429 shape, and a client that stops
 * reading, dropped with an error frame naming the cursor to resume from (a frame may
 * wait a second here, `stall=1`). The public firehose (issue 35) is admitted, counted
 * the same way, with an address's own allowance for streams without credentials
 * (`anonymous=2`).
 */
const net = useLocalNetwork({ hostStreamLimits: 'caller=2,ip=3,anonymous=2,stall=1' })
const as = net.caller
const open = () => net.group('open').did

const streams: StreamClient[] = []
const connect = async (name: Parameters<typeof net.as>[0], params: { cursor?: string; groups?: string[] } = {}) => {
  const s = await StreamClient.connect(net.stack.host.url, await as(name).serviceAuth(SUBSCRIBE), params)
  if (s instanceof StreamClient) streams.push(s)
  return s
}
afterEach(async () => {
  for (const s of streams.splice(0)) {
    s.terminate()
    await s.closed
  }
  // The host counts a stream as closed once it sees the socket go.
  await new Promise((resolve) => setTimeout(resolve, 300))
})

const expectTooMany = (res: StreamClient | Refused, limit: number, who: RegExp) => {
  if (res instanceof StreamClient) throw new Error('the stream was opened')
  expect(res.status).toBe(429)
  expect(res.body.error).toBe('RateLimitExceeded')
  expect(res.body.message).toMatch(who)
  expect(res.headers['ratelimit-limit']).toBe(String(limit))
  expect(res.headers['ratelimit-remaining']).toBe('0')
  expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000)
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
}

const firehose = async (authorization?: string) => {
  const s = await StreamClient.connect(net.stack.host.url, authorization, { nsid: FIREHOSE })
  if (s instanceof StreamClient) streams.push(s)
  return s
}

describe('public firehose limits', () => {
  it('counts firehose streams per address, apart from change streams, whatever an Authorization header claims', async () => {
    expect(await firehose()).toBeInstanceOf(StreamClient)
    // A header the firehose never reads must not take it out of the address's count.
    expect(await firehose('junk.junk.junk')).toBeInstanceOf(StreamClient)
    expectTooMany(await firehose('junk.junk.junk'), 2, /firehose streams for your network/)
    expectTooMany(await firehose(), 2, /firehose streams for your network/)
    // The address's change streams are a separate allowance.
    expect(await connect('owner')).toBeInstanceOf(StreamClient)
  })
})

describe('change stream limits', () => {
  it('refuses a third open stream for one account with 429, and takes one again once one closes', async () => {
    const first = await connect('owner')
    expect(first).toBeInstanceOf(StreamClient)
    expect(await connect('owner')).toBeInstanceOf(StreamClient)
    expectTooMany(await connect('owner'), 2, /your account/)
    ;(first as StreamClient).close()
    await (first as StreamClient).closed
    await expect.poll(async () => (await connect('owner')) instanceof StreamClient, { timeout: 5_000 }).toBe(true)
  })

  it('refuses more open streams from one address than allowed, whoever asks', async () => {
    expect(await connect('owner')).toBeInstanceOf(StreamClient)
    expect(await connect('admin')).toBeInstanceOf(StreamClient)
    expect(await connect('member')).toBeInstanceOf(StreamClient)
    expectTooMany(await connect('moderator'), 3, /your network/)
  })

  it('drops a client that stops reading, with an error frame naming the cursor to resume from', async () => {
    const reader = await connect('member', { groups: [open()] })
    if (!(reader instanceof StreamClient)) throw new Error('refused')
    reader.pause()
    // Far more than the sockets between host and client can hold: Linux lets a loopback
    // receive buffer grow to tcp_rmem's maximum (32 MB here) and the sender's to 4 MB, and
    // once 8 MB all fitted, so nothing stalled (issue 35). 48 MB cannot.
    const total = 8_000
    const subjects = Array.from({ length: total }, (_, i) => `${String(i).padStart(6, '0')}:${'x'.repeat(6_000)}`)
    appendChanges(net.running, open(), 'member.accepted', subjects)
    const wake = await as('owner').call('example.groups.configureGroup', { body: { group: open(), description: 'wake the stream' } })
    expect(wake.status).toBe(200)
    // The host waits `stall` for the client to take a frame, then drops it and logs so. Awaited,
    // not slept: on a loaded machine the host took over 3 s just to fill the sockets, and a
    // client resumed before the drop read everything and was never dropped.
    const dropped = () => fs.readFileSync(path.join(net.running.dataDir, 'host.log'), 'utf8').split('\n').filter((l) => l.includes('client too slow; dropped')).length
    const before = dropped()
    await expect.poll(dropped, { timeout: 40_000, interval: 200 }).toBeGreaterThan(before)
    reader.resume()
    const closed = await reader.closed
    expect(closed.code).toBe(1008)
    const last = reader.frames[reader.frames.length - 1]!
    expect(last.op).toBe(-1)
    expect(last.body.error).toBe('ConsumerTooSlow')
    const got = reader.changes()
    expect(got.length).toBeGreaterThan(0)
    expect(got.length).toBeLessThan(total)
    const cursor = got[got.length - 1]!.cursor
    expect(last.body.cursor).toBe(cursor)
    expect(last.body.message).toContain(cursor)

    // Resumed from it, the rest arrives: nothing lost, nothing twice.
    const rest = await connect('member', { groups: [open()], cursor })
    if (!(rest instanceof StreamClient)) throw new Error('refused')
    await rest.change((c) => c.change.kind === 'group.configured', 20_000)
    const all = [...got, ...rest.changes()].map((c) => c.change.subject)
    expect(all).toEqual([...subjects, open()])
  })
})
