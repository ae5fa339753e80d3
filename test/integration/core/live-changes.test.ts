import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { recordRequests } from '../../support/request-log.js'
import { CoreHarness, eventually } from '../../support/core-harness.js'
import { closeSharedBrowser } from '../../support/browser-sign-in.js'
import type { Notice } from '../../../src/shared/ipc/contract.js'
import type { LiveConnectionState } from '../../../src/shared/ipc/views.js'

/**
 * The app's live connection to its group host (issue 23, src/main/core/live/) against
 * the real local network: changes others make reach the cache and the window through
 * the stream, with no listChanges; a lost connection is shown, retried and resumed from
 * its cursor; a host without the stream is still checked every 30 seconds.
 */
const net = useLocalNetwork()
let app: CoreHarness | undefined
let polling: CoreHarness | undefined
afterAll(async () => {
  await app?.stop()
  await polling?.stop()
  await closeSharedBrowser()
})

/** Every request this process makes (the cores run in it), by where it went. */
const seen = recordRequests()
const since = (from: number, origin = net.stack.host.url) => seen.slice(from).filter((r) => r.origin === origin).map((r) => r.method)

/** Waits until no request has been made for `ms` (work a connection started has ended). */
async function quiet(ms = 600) {
  let count = -1
  while (count !== seen.length) {
    count = seen.length
    await new Promise((r) => setTimeout(r, ms))
  }
}

const liveOf = async (core: CoreHarness): Promise<LiveConnectionState | undefined> => (await core.call('sync.status', {})).live[0]
const approval = () => net.group('approval').did

describe('the live connection', () => {
  let owner: string
  // One app for these tests, live on the approval group; each test makes the changes it looks for.
  // While `away`, a lost connection waits an hour before trying again: the app stays away
  // from its host until the test lets it back (as an action of its own going through does),
  // not until a back-off happens to run out while the host is up.
  let away = false
  beforeAll(async () => {
    app = await CoreHarness.start(net.stack, undefined, { liveUpdates: true, liveRetryDelayMs: (attempt) => (away ? 60 * 60_000 : 500 * 2 ** Math.min(attempt, 6)) })
    owner = await app.signIn('owner')
    await app.call('groups.add', { accountDid: owner, ref: approval() })
    await eventually(async () => (await liveOf(app!))?.state === 'live')
  })

  it('a join request made elsewhere reaches the cache and the window at once, with no listChanges request', async () => {
    // Connecting without a cursor, the app caught its groups up once from the change log.
    await quiet()
    const core = app!
    const notices: Notice[] = []
    const unsubscribe = core.core.notices.subscribe((n) => notices.push(n))
    const from = seen.length
    try {
      const outsider = net.as('outsider')
      expect((await outsider.call('example.groups.requestJoin', { body: { group: approval(), message: 'live hello' } })).status).toBe(200)
      const request = await eventually(async () => (await app!.call('groups.joinRequests', { accountDid: owner, groupDid: approval() })).items.find((r) => r.did === outsider.did), 5_000)
      expect(request.message).toBe('live hello')
      expect(notices.some((n) => n.name === 'group.changed' && n.payload.groups.some((g) => g.groupDid === approval() && g.accountDid === owner))).toBe(true)
      // The summary the desktop notification is raised from counts it already.
      expect((await core.call('groups.list', {})).find((g) => g.did === approval())?.pendingRequests).toBeGreaterThan(0)
      await quiet()
      const methods = since(from)
      // The pushed entry named the join-request list, which alone was read again.
      expect(methods).toContain('example.groups.listJoinRequests')
      expect(methods).not.toContain('example.groups.listChanges')
      expect(methods).not.toContain('example.groups.getGroup')
    } finally {
      unsubscribe()
    }
  })

  it('the 30-second background pass asks the host nothing about a group the live connection covers', async () => {
    // A pass as the 30-second timer runs it (Sync now checks everything).
    const from = seen.length
    await app!.core.groups.syncing.syncAll({ skip: (a, g) => app!.core.groups.live.covers(a, g) })
    expect(since(from)).toEqual([])
  })

  it('a lost connection is shown in the window, retried, and resumed from its cursor, losing nothing', async () => {
    const core = app!
    const asking = net.as('outsider2')
    const withdrawing = net.as('outsider')
    let changesMadeAt = 0
    // A request the app has seen (asking again while one is pending leaves the one), to be withdrawn while it is away.
    expect((await withdrawing.call('example.groups.requestJoin', { body: { group: approval(), message: 'live hello' } })).status).toBe(200)
    await eventually(async () => (await core.call('groups.joinRequests', { accountDid: owner, groupDid: approval() })).items.some((r) => r.did === withdrawing.did))
    away = true
    await net.running.restartHost({
      whileDown: async () => {
        // The window is told plainly, with when it tries again.
        const down = await eventually(async () => {
          const live = await liveOf(core)
          return live?.state === 'down' && live
        })
        expect(down.detail).toMatch(/^Lost the live connection: /)
        expect(Date.parse(down.retryAt!)).toBeGreaterThan(Date.now())
      },
    })
    const from = seen.length
    // One person asks, the other withdraws theirs.
    expect((await asking.call('example.groups.requestJoin', { body: { group: approval(), message: 'while you were away' } })).status).toBe(200)
    expect((await withdrawing.call('example.groups.cancelJoinRequest', { body: { group: approval() } })).status).toBe(200)
    changesMadeAt = Date.now()
    expect((await liveOf(core))?.state).toBe('down')
    // One of the app's own calls to the host goes through: the connection tries again now.
    away = false
    core.core.groups.live.hostAnswered(owner, approval())

    await eventually(async () => {
      const dids = (await core.call('groups.joinRequests', { accountDid: owner, groupDid: approval() })).items.map((r) => r.did)
      return dids.includes(asking.did) && !dids.includes(withdrawing.did)
    })
    const live = (await liveOf(core))!
    expect(live.state).toBe('live')
    // Reconnected after the changes were made: the stream resumed from its cursor and
    // sent them; nothing was read from the change log.
    expect(Date.parse(live.since)).toBeGreaterThan(changesMadeAt)
    await quiet()
    expect(since(from)).not.toContain('example.groups.listChanges')
  })
})

describe('a host without the change stream', () => {
  /**
   * An older host in front of the real one: every call passes, but the WebSocket upgrade
   * is answered as xrpc-server answers a method it does not have.
   */
  let proxy: http.Server | undefined
  afterAll(() => proxy?.close())

  it('is checked every 30 seconds as before, and the window says so', async () => {
    const target = new URL(net.stack.host.url)
    proxy = http.createServer((req, res) => {
      if (req.headers.upgrade) {
        res.writeHead(501, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: 'MethodNotImplemented', message: 'Method Not Implemented' }))
        return
      }
      const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      })
      upstream.on('error', () => res.destroy())
      req.pipe(upstream)
    })
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve))
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`

    // The "30 seconds" shortened for the test.
    polling = await CoreHarness.start(net.stack, undefined, { liveUpdates: true, syncIntervalMs: 300 })
    const admin = await polling.signIn('admin')
    await polling.call('groups.add', { accountDid: admin, ref: approval() })
    const rt = await polling.core.groups.runtime(admin)
    // This group's host is the older one.
    await rt.cache.updateTable('group_row').set({ hostUrl: proxyUrl }).where('did', '=', approval()).execute()
    polling.core.notices.emit('groups.changed', {})

    const state = await eventually(async () => {
      const live = await liveOf(polling!)
      return live?.hostUrl === proxyUrl && live.state === 'polling' && live
    })
    expect(state.detail).toContain('checks it for changes every 30 seconds')

    const from = seen.length
    const person = net.as('outsider')
    // A request another test left pending is withdrawn first, so this one (and its message) is new.
    await person.call('example.groups.cancelJoinRequest', { body: { group: approval() } })
    expect((await person.call('example.groups.requestJoin', { body: { group: approval(), message: 'polled' } })).status).toBe(200)
    await eventually(async () => (await polling!.call('groups.joinRequests', { accountDid: admin, groupDid: approval() })).items.some((r) => r.did === person.did && r.message === 'polled'), 10_000)
    expect(since(from, proxyUrl)).toContain('example.groups.listChanges')
  })
})
