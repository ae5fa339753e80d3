import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { encode } from '@atproto/lex-cbor'
import { reconnectDelayMs } from '../../src/main/core/live/backoff.js'
import { LiveConnection, type LiveConnectionDeps, type LiveState } from '../../src/main/core/live/live-connection.js'
import type { SocketEnd } from '../../src/main/core/live/change-socket.js'
import type { Change } from '../../src/main/core/sync/catch-up.js'

/**
 * The live connection's own decisions, on a stand-in socket and a fake clock: what the
 * real network cannot show quickly (tokens running out, a host refusing the upgrade,
 * the backoff's bounds). The connection against a real host: test/integration/core/live-changes.test.ts.
 */
interface FakeSocket {
  url: URL
  token: string
  open(): void
  frame(body: Record<string, unknown>): void
  errorFrame(body: { error: string; message?: string }): void
  end(how: SocketEnd): void
  closed: boolean
}

function harness(overrides: Partial<LiveConnectionDeps> = {}) {
  const sockets: FakeSocket[] = []
  const applied: { group: string; changes: Change[]; cursor: string }[] = []
  const states: LiveState[] = []
  const opened: boolean[] = []
  let cursor: string | null = null
  let minted = 0
  const dropped: number[] = []
  const deps: LiveConnectionDeps = {
    hostUrl: 'http://host.test',
    token: async () => ({ token: `token-${++minted}`, exp: Math.floor(Date.now() / 1000) + 30 * 60 }),
    dropToken: () => dropped.push(minted),
    readCursor: async () => cursor,
    writeCursor: async (c) => void (cursor = c),
    apply: async (group, changes, c) => void applied.push({ group, changes, cursor: c }),
    behind: () => {},
    outdated: async () => {},
    opened: (resumed) => opened.push(resumed),
    onState: (s) => states.push(s),
    random: () => 0.5,
    openSocket: (opts) => {
      const s: FakeSocket = {
        url: opts.url,
        token: opts.token,
        closed: false,
        open: () => opts.onOpen(),
        frame: (body) => opts.onFrame(new Uint8Array(Buffer.concat([encode({ op: 1, t: '#change' }), encode(body as never)]))),
        errorFrame: (body) => opts.onFrame(new Uint8Array(Buffer.concat([encode({ op: -1 }), encode(body)]))),
        end: (how) => opts.onEnd(how),
      }
      sockets.push(s)
      return {
        close: () => {
          s.closed = true
          opts.onEnd({ kind: 'closed' })
        },
      }
    },
    ...overrides,
  }
  const change = (group: string, seq: number) => ({ group, change: { seq, kind: 'joinRequest.created', subject: `did:plc:${seq}`, createdAt: new Date().toISOString() }, cursor: `c${seq}` })
  return { deps, sockets, applied, states, opened, change, cursor: () => cursor, minted: () => minted, dropped }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('reconnect delays', () => {
  it('double from a second up to a minute, each drawn between half and all of its step', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(500)
    expect(reconnectDelayMs(0, () => 1)).toBe(1_000)
    expect(reconnectDelayMs(3, () => 0)).toBe(4_000)
    expect(reconnectDelayMs(3, () => 1)).toBe(8_000)
    expect(reconnectDelayMs(40, () => 1)).toBe(60_000)
    expect(reconnectDelayMs(40, () => 0)).toBe(30_000)
  })
})

describe('the live connection', () => {
  it('applies a burst group by group, keeps the cursor only after, and resumes from it when lost', async () => {
    const h = harness()
    const conn = new LiveConnection(h.deps)
    conn.start()
    await vi.advanceTimersByTimeAsync(0)
    h.sockets[0]!.open()
    expect(h.opened).toEqual([false]) // no cursor yet: the groups are caught up from their change logs
    for (const [g, seq] of [['A', 1], ['B', 2], ['A', 3]] as const) h.sockets[0]!.frame(h.change(`did:plc:${g}`, seq))
    await vi.advanceTimersByTimeAsync(0)
    // The first at once; those that came while it was applied, together, group by group.
    expect(h.applied.map((a) => [a.group, a.changes.map((c) => c.seq), a.cursor])).toEqual([
      ['did:plc:A', [1], 'c1'],
      ['did:plc:B', [2], 'c2'],
      ['did:plc:A', [3], 'c3'],
    ])
    expect(h.cursor()).toBe('c3')

    h.sockets[0]!.end({ kind: 'dropped', opened: true, reason: 'the connection was cut' })
    expect(conn.state).toMatchObject({ state: 'down', detail: 'Lost the live connection: the connection was cut.' })
    await vi.advanceTimersByTimeAsync(reconnectDelayMs(0, () => 0.5))
    expect(h.sockets[1]!.url.searchParams.get('cursor')).toBe('c3')
    h.sockets[1]!.open()
    expect(h.opened).toEqual([false, true])
    expect(conn.state.state).toBe('live')
    await conn.close()
  })

  it('renews its token before it expires with a second connection that takes over once open: nothing between, nothing twice', async () => {
    const h = harness()
    const conn = new LiveConnection(h.deps)
    conn.start()
    await vi.advanceTimersByTimeAsync(0)
    h.sockets[0]!.open()
    h.sockets[0]!.frame(h.change('did:plc:A', 1))
    await vi.advanceTimersByTimeAsync(29 * 60_000)
    expect(h.sockets).toHaveLength(2)
    expect(h.sockets[1]!.token).toBe('token-2')
    // Until the new one is open, the old one still delivers.
    expect(h.sockets[0]!.closed).toBe(false)
    h.sockets[0]!.frame(h.change('did:plc:A', 2))
    h.sockets[1]!.frame(h.change('did:plc:A', 2))
    h.sockets[1]!.open()
    expect(h.sockets[0]!.closed).toBe(true)
    h.sockets[1]!.frame(h.change('did:plc:A', 3))
    await vi.advanceTimersByTimeAsync(0)
    expect(h.applied.flatMap((a) => a.changes.map((c) => c.seq))).toEqual([1, 2, 3])
    expect(h.opened).toEqual([false]) // a renewal needs no catch-up
    expect(h.states.some((s) => s.state === 'down')).toBe(false)
    await conn.close()
  })

  it('forgets a token the host refused and tries again with a fresh one', async () => {
    const h = harness()
    const conn = new LiveConnection(h.deps)
    conn.start()
    await vi.advanceTimersByTimeAsync(0)
    h.sockets[0]!.end({ kind: 'refused', status: 401, error: 'BadJwtSignature', message: null, retryAfterS: null })
    expect(h.dropped).toEqual([1])
    expect(conn.state.detail).toContain('did not accept the sign-in')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(h.sockets[1]!.token).toBe('token-2')
    await conn.close()
  })

  it('tries again at once, mid back-off, when another call to the host just went through', async () => {
    const h = harness()
    const conn = new LiveConnection(h.deps)
    conn.start()
    await vi.advanceTimersByTimeAsync(0)
    h.sockets[0]!.end({ kind: 'dropped', opened: false, reason: 'connection refused' })
    for (let i = 1; i <= 4; i++) {
      await vi.advanceTimersByTimeAsync(60_000)
      h.sockets[i]!.end({ kind: 'dropped', opened: false, reason: 'connection refused' })
    }
    expect(conn.state.state).toBe('down')
    const waiting = h.sockets.length
    conn.retryNow()
    await vi.advanceTimersByTimeAsync(0)
    expect(h.sockets).toHaveLength(waiting + 1)
    h.sockets.at(-1)!.open()
    expect(conn.state.state).toBe('live')
    await conn.close()
  })

  it('keeps to a 429’s wait even when another call to the host went through', async () => {
    const h = harness()
    const conn = new LiveConnection(h.deps)
    conn.start()
    await vi.advanceTimersByTimeAsync(0)
    h.sockets[0]!.end({ kind: 'refused', status: 429, error: 'RateLimitExceeded', message: null, retryAfterS: 30 })
    conn.retryNow()
    await vi.advanceTimersByTimeAsync(0)
    expect(h.sockets).toHaveLength(1)
    await conn.close()
  })

  it('waits as long as a 429 says before trying again', async () => {
    const h = harness()
    const conn = new LiveConnection(h.deps)
    conn.start()
    await vi.advanceTimersByTimeAsync(0)
    h.sockets[0]!.end({ kind: 'refused', status: 429, error: 'RateLimitExceeded', message: null, retryAfterS: 30 })
    expect(conn.state.detail).toContain('limiting connections')
    await vi.advanceTimersByTimeAsync(29_000)
    expect(h.sockets).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(h.sockets).toHaveLength(2)
    await conn.close()
  })

  it('leaves a host without the stream to the 30-second catch-up, asking again only an hour later', async () => {
    const h = harness()
    const conn = new LiveConnection(h.deps)
    conn.start()
    await vi.advanceTimersByTimeAsync(0)
    h.sockets[0]!.end({ kind: 'refused', status: 501, error: 'MethodNotImplemented', message: 'Method Not Implemented', retryAfterS: null })
    expect(conn.state).toMatchObject({ state: 'polling' })
    await vi.advanceTimersByTimeAsync(59 * 60_000)
    expect(h.sockets).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(h.sockets).toHaveLength(2)
    await conn.close()
  })

  it('drops a cursor the host says is not its own and starts afresh', async () => {
    const h = harness()
    await h.deps.writeCursor('from-another-host')
    const conn = new LiveConnection(h.deps)
    conn.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(h.sockets[0]!.url.searchParams.get('cursor')).toBe('from-another-host')
    h.sockets[0]!.open()
    h.sockets[0]!.errorFrame({ error: 'FutureCursor', message: 'That cursor is past the end' })
    await vi.advanceTimersByTimeAsync(0)
    expect(h.cursor()).toBeNull()
    await conn.close()
  })
})
