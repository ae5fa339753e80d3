/**
 * bench:live's app half (issue 23): the app core as the shells run it, against the same
 * local network as the host half.
 *
 *   - A change made elsewhere -> the app core's notice that shows it (the window re-reads
 *     on it): p50 and p99 with the live connection, and with the stream off and the
 *     background pass polling every `pollIntervalS` seconds. Each polled sample is the wait
 *     for the next pass plus that pass's own work; its wait is scaled to the 30-second
 *     interval sample by sample (the pass's work is not), so both come from this run.
 *   - An idle app following `idleGroups` groups: host requests per minute with the live
 *     connection (target 0 besides the socket's own pings) and the host's CPU, beside the
 *     same app polling (measured over a few passes, stated per minute at 30 s).
 *
 * Sign-in goes through the PDS's own pages in Chromium; sessions stay in memory.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { RunningStack } from '../../src/stack/stack.js'
import { createCore, type AppCore } from '../../src/main/core/app-core.js'
import { MemorySecretStore } from '../../src/main/core/secrets/memory-secret-store.js'
import { dispatch } from '../../src/main/core/ipc/dispatch.js'
import type { Channel, ChannelInput, ChannelOutput } from '../../src/shared/ipc/contract.js'
import type { StackFile } from '../../src/shared/stack-file.js'
import { completeOnPdsPages, closeSharedBrowser } from '../../test/support/browser-sign-in.js'
import { call } from './xrpc.js'
import { processCpuSeconds } from './machine.js'
import { percentile } from './stats.js'

const POLLING_S = 30
const TARGET_NOTICE_P99_MS = 1_000

export interface AppBenchOptions {
  /** Changes timed with the live connection. */
  changes: number
  /** Changes timed with the stream off, polling every `pollIntervalS`. */
  pollChanges: number
  pollIntervalS: number
  idleGroups: number
  idleSeconds: number
  log: (line: string) => void
}

export interface AppFigures {
  live: { p50: number; p99: number; max: number; samples: number }
  pollingMeasured: { intervalS: number; p50: number; p99: number; samples: number }
  pollingAt30s: { p50: number; p99: number }
  idle: {
    groups: number
    live: { seconds: number; requests: number; perMinute: number; hostCpuSecondsPerMinute: number | null; states: string[] }
    polling: { passes: number; requests: number; perMinuteAt30s: number; hostCpuSecondsPerMinuteAt30s: number | null }
  }
}

/** Every HTTP request this process makes to the group host (the app cores run in it). */
let hostOrigin = ''
let hostRequests = 0
let counting = false
function countHostRequests(origin: string) {
  hostOrigin = origin
  if (counting) return
  counting = true
  const realFetch = globalThis.fetch
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (new URL(input instanceof Request ? input.url : String(input)).origin === hostOrigin) hostRequests++
    return realFetch(input, init)
  }) as typeof fetch
}

/** One app core, as the shells run it, with sessions in memory. */
class App {
  private constructor(
    readonly core: AppCore,
    readonly dataDir: string,
  ) {}
  static async open(stack: StackFile, secrets: MemorySecretStore, opts: { liveUpdates: boolean; syncIntervalMs: number }) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-bench-live-'))
    const network = { pdsUrl: stack.pds, hostUrl: stack.host.url, plcUrl: stack.plc, hostAud: stack.host.aud }
    return new App(await createCore({ version: 'bench', shell: 'loopback', network, secrets, dataDir, ...opts }), dataDir)
  }
  async ipc<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
    const env = await dispatch(this.core.handlers, channel, input)
    if (!env.ok) throw new Error(`${channel}: ${env.error.message}`)
    return env.value as ChannelOutput<C>
  }
  async close() {
    await this.core.close()
    fs.rmSync(this.dataDir, { recursive: true, force: true })
  }
}

/** The owner on another device: service-auth tokens minted beforehand, so the timed part is the write alone. */
async function ownerElsewhere(stack: StackFile) {
  const account = stack.accounts.find((a) => a.name === 'owner')!
  const { body } = await call<{ accessJwt: string }>(stack.pds, 'com.atproto.server.createSession', { body: { identifier: account.handle, password: account.password } })
  const tokens = new Map<string, string>()
  const token = async (lxm: string) => {
    let t = tokens.get(lxm)
    if (!t) {
      const exp = String(Math.floor(Date.now() / 1000) + 30 * 60)
      t = (await call<{ token: string }>(stack.pds, 'com.atproto.server.getServiceAuth', { params: { aud: stack.host.aud, lxm, exp }, headers: { authorization: `Bearer ${body.accessJwt}` } })).body.token
      tokens.set(lxm, t)
    }
    return t
  }
  return {
    procedure: async (method: string, input: unknown) => call(stack.host.url, method, { body: input, headers: { authorization: `Bearer ${await token(method)}` } }),
  }
}

/**
 * Changes the group's description from elsewhere, one at a time, and times each until
 * the app's notice for the group after which its cache shows the new description.
 * `passStarts` (polling) gives the start of the pass that brought each one, and each
 * change is made at a random point of the interval.
 */
async function timeNotices(
  app: App,
  accountDid: string,
  groupDid: string,
  owner: Awaited<ReturnType<typeof ownerElsewhere>>,
  n: number,
  label: string,
  polling?: { passStarts: number[]; intervalS: number },
) {
  const samples: { totalMs: number; passMs: number | null }[] = []
  let waiting: { description: string; resolve: (at: number) => void } | null = null
  const unsubscribe = app.core.notices.subscribe((notice) => {
    if (notice.name !== 'group.changed' || !notice.payload.groups.some((g) => g.groupDid === groupDid) || !waiting) return
    const at = performance.now()
    const w = waiting
    void app.ipc('groups.list', {}).then((groups) => {
      if (waiting === w && groups.find((g) => g.did === groupDid && g.accountDid === accountDid)?.description === w.description) {
        waiting = null
        w.resolve(at)
      }
    })
  })
  try {
    for (let i = 0; i < n; i++) {
      // Polling: one made right after the last notice would always wait a whole interval.
      if (polling) await new Promise((r) => setTimeout(r, Math.random() * polling.intervalS * 1000))
      const description = `${label} ${i} ${Date.now()}`
      const seen = new Promise<number>((resolve) => (waiting = { description, resolve }))
      const t0 = performance.now()
      await owner.procedure('example.groups.configureGroup', { group: groupDid, description })
      const at = await Promise.race([seen, new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`${label}: change ${i} not shown within 120 s`)), 120_000))])
      const pass = polling ? [...polling.passStarts].reverse().find((s) => s <= at) : undefined
      samples.push({ totalMs: at - t0, passMs: pass === undefined ? null : at - Math.max(pass, t0) })
    }
  } finally {
    unsubscribe()
  }
  return samples
}

const p = (xs: number[], q: number) => percentile(Float64Array.from(xs).sort(), q)

async function signIn(app: App, stack: StackFile, name: string): Promise<string> {
  const account = stack.accounts.find((a) => a.name === name)!
  const start = await app.ipc('accounts.signIn', { handle: account.handle })
  await completeOnPdsPages(start.authorizeUrl, account.password)
  return (await app.ipc('accounts.awaitSignIn', { attemptId: start.attemptId })).did
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** A pass starts by listing its groups, each waiting. */
const onPassStart = (app: App, seen: () => void) =>
  app.core.notices.subscribe((n) => {
    if (n.name === 'sync.progress' && n.payload.groups.length && n.payload.groups.every((g) => g.phase === 'waiting')) seen()
  })

export async function measureApp(stack: RunningStack, o: AppBenchOptions): Promise<AppFigures> {
  const s = stack.file
  countHostRequests(s.host.url)
  const secrets = new MemorySecretStore()
  const owner = await ownerElsewhere(s)
  const approval = s.groups.find((g) => g.name === 'approval')!.did
  try {
    // Live.
    const live = await App.open(s, secrets, { liveUpdates: true, syncIntervalMs: 0 })
    const ownerDid = await signIn(live, s, 'owner')
    await live.ipc('groups.add', { accountDid: ownerDid, ref: approval })
    await waitFor(async () => (await live.ipc('sync.status', {})).live[0]?.state === 'live', 'the live connection')
    await new Promise((r) => setTimeout(r, 1_000)) // the catch-up after connecting
    o.log(`  app: ${o.changes} changes to the window with the live connection…`)
    const liveSamples = (await timeNotices(live, ownerDid, approval, owner, o.changes, 'live')).map((x) => x.totalMs)

    // Polling, the stream off: the same app with its background pass every pollIntervalS.
    const polling = await App.open(s, secrets, { liveUpdates: false, syncIntervalMs: o.pollIntervalS * 1000 })
    await polling.ipc('groups.add', { accountDid: ownerDid, ref: approval })
    const passStarts: number[] = []
    onPassStart(polling, () => passStarts.push(performance.now()))
    await new Promise((r) => setTimeout(r, o.pollIntervalS * 1000 + 500))
    o.log(`  app: ${o.pollChanges} changes to the window, polling every ${o.pollIntervalS} s…`)
    const polled = await timeNotices(polling, ownerDid, approval, owner, o.pollChanges, 'polled', { passStarts, intervalS: o.pollIntervalS })
    const polled30 = polled.map(({ totalMs, passMs }) => (totalMs - (passMs ?? 0)) * (POLLING_S / o.pollIntervalS) + (passMs ?? 0))

    // Idle: the same two apps, each following idleGroups groups and nothing else.
    o.log(`  app: idle, following ${o.idleGroups} groups…`)
    const suffix = Date.now().toString(36).slice(-5)
    const idleGroups: string[] = []
    for (let i = 0; i < o.idleGroups; i++) {
      idleGroups.push((await owner.procedure('example.groups.createGroup', { handle: `idle-${i}-${suffix}.groups.test`, joinPolicy: 'approval' })).body.did as string)
    }
    for (const app of [live, polling]) {
      await app.core.groups.syncing.removeGroup(ownerDid, approval)
      for (const g of idleGroups) await app.ipc('groups.add', { accountDid: ownerDid, ref: g })
    }
    await polling.close()
    await waitFor(async () => (await live.ipc('sync.status', {})).live.every((c) => c.state === 'live'), 'the live connection')
    await new Promise((r) => setTimeout(r, 2_000)) // what adding the groups set off (handle checks) ends
    const hostPid = stack.hostPids()[0]!
    const measureIdle = async (seconds: number) => {
      const requests = hostRequests
      const cpu = processCpuSeconds(hostPid)
      await new Promise((r) => setTimeout(r, seconds * 1000))
      const cpuAfter = processCpuSeconds(hostPid)
      return { requests: hostRequests - requests, cpuS: cpu !== null && cpuAfter !== null ? cpuAfter - cpu : null }
    }
    o.log(`  app: idle with the live connection for ${o.idleSeconds} s…`)
    const idleLive = await measureIdle(o.idleSeconds)
    const states = (await live.ipc('sync.status', {})).live.map((c) => c.state)
    await live.close()
    // Polling, over a few passes at a shorter interval, stated per 30-second pass.
    const pollingIdle = await App.open(s, secrets, { liveUpdates: false, syncIntervalMs: o.pollIntervalS * 1000 })
    for (const g of idleGroups) await pollingIdle.ipc('groups.add', { accountDid: ownerDid, ref: g })
    let passes = 0
    onPassStart(pollingIdle, () => passes++)
    await new Promise((r) => setTimeout(r, o.pollIntervalS * 1000 + 2_000))
    const pollSeconds = Math.max(o.pollIntervalS * 5, 10)
    passes = 0
    o.log(`  app: idle, polling every ${o.pollIntervalS} s, for ${pollSeconds} s…`)
    const idlePoll = await measureIdle(pollSeconds)
    const counted = passes
    await pollingIdle.close()

    const pollTotals = polled.map((x) => x.totalMs)
    return {
      live: { p50: p(liveSamples, 50), p99: p(liveSamples, 99), max: Math.max(...liveSamples), samples: liveSamples.length },
      pollingMeasured: { intervalS: o.pollIntervalS, p50: p(pollTotals, 50), p99: p(pollTotals, 99), samples: pollTotals.length },
      pollingAt30s: { p50: p(polled30, 50), p99: p(polled30, 99) },
      idle: {
        groups: o.idleGroups,
        live: {
          seconds: o.idleSeconds,
          requests: idleLive.requests,
          perMinute: (idleLive.requests * 60) / o.idleSeconds,
          hostCpuSecondsPerMinute: idleLive.cpuS === null ? null : (idleLive.cpuS * 60) / o.idleSeconds,
          states,
        },
        polling: {
          passes: counted,
          requests: idlePoll.requests,
          perMinuteAt30s: counted ? (idlePoll.requests / counted) * (60 / POLLING_S) : NaN,
          hostCpuSecondsPerMinuteAt30s: counted && idlePoll.cpuS !== null ? (idlePoll.cpuS / counted) * (60 / POLLING_S) : null,
        },
      },
    }
  } finally {
    await closeSharedBrowser()
  }
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`

export function reportApp(a: AppFigures): void {
  console.log('\nchange made elsewhere -> the app core’s notice (the window re-reads on it)')
  console.log(`  live          p50 ${ms(a.live.p50)}  p99 ${ms(a.live.p99)}  (${a.live.samples} changes; target p99 < ${TARGET_NOTICE_P99_MS} ms: ${a.live.p99 < TARGET_NOTICE_P99_MS ? 'met' : 'NOT met'})`)
  console.log(`  polling ${String(a.pollingMeasured.intervalS).padStart(2)} s  p50 ${ms(a.pollingMeasured.p50)}  p99 ${ms(a.pollingMeasured.p99)}  (${a.pollingMeasured.samples} changes, measured)`)
  console.log(
    `  polling 30 s  p50 ${ms(a.pollingAt30s.p50)}  p99 ${ms(a.pollingAt30s.p99)}  (the same samples, each wait for the next pass scaled x${POLLING_S / a.pollingMeasured.intervalS}, the pass's own work as measured)`,
  )
  console.log(`  polling / live: p50 ${(a.pollingAt30s.p50 / a.live.p50).toFixed(0)}x, p99 ${(a.pollingAt30s.p99 / a.live.p99).toFixed(0)}x`)
  const i = a.idle
  const cpu = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(3)} s/min`)
  console.log(`\nan idle app following ${i.groups} groups`)
  console.log(`  live          ${i.live.perMinute.toFixed(1)} host requests/min (${i.live.requests} in ${i.live.seconds} s; the socket's pings are not requests), host CPU ${cpu(i.live.hostCpuSecondsPerMinute)} (connection ${i.live.states.join(', ')}; target 0 requests: ${i.live.requests === 0 ? 'met' : 'NOT met'})`)
  console.log(`  polling 30 s  ${i.polling.perMinuteAt30s.toFixed(1)} host requests/min (${i.polling.requests} in ${i.polling.passes} passes, per pass x2), host CPU ${cpu(i.polling.hostCpuSecondsPerMinuteAt30s)}`)
}
