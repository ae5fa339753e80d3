/**
 * `npm run bench:live` (issue 23), the host's half: how fast a change reaches clients on
 * the change stream (`example.groups.subscribeChanges`) against the 30-second
 * `listChanges` polling it replaces, measured in the same run, and what the host pays
 * for many subscribers.
 *
 *   1. Latency: one subscriber and one poller (listChanges every --poll-seconds, 30 by
 *      default, as the app polls today) watch the same group while --changes changes
 *      (default 200) are made one after another over --spread-seconds (default 60).
 *      For each change: the time from its write being sent to the client having it. p50 and p99 for both, and the ratio.
 *   2. Fan-out: --subscribers streams (default 2,000) spread over --groups groups (default
 *      100: 20 streams follow each group, as organizers' apps follow their own groups), then a burst of --burst changes (default 500) across the groups; the time
 *      from each write being sent to each subscriber receiving it (p50, p99), and the host's
 *      memory per open stream (resident size before and after opening them). On SQLite
 *      with one host process, and with --db postgres also on PostgreSQL with two, the
 *      subscribers split between the processes and the writes going to either.
 *
 *   3. The app (lib/live-app.ts): a change made elsewhere to the app core's notice (what
 *      the window re-reads on), live and with the stream off polling every --poll-interval
 *      seconds (--poll-changes changes, each wait scaled to 30 s); and an idle app following
 *      --idle-groups groups for --idle-seconds (host requests and CPU per minute, beside
 *      polling).
 *
 * --small runs every part at a size that checks the bench works. Options: --json <file>
 * writes the figures.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { decodeAll } from '@atproto/lex-cbor'
import type { RunningStack } from '../src/stack/stack.js'
import { call, mapLimit } from './lib/xrpc.js'
import { describeMachine, processCpuSeconds } from './lib/machine.js'
import { percentile } from './lib/stats.js'
import { measureApp, reportApp, type AppFigures } from './lib/live-app.js'
import { benchNetworks, checkDbOption, positiveInt, progressLog, writeFigures } from './lib/bench-run.js'

const SUBSCRIBE = 'example.groups.subscribeChanges'
/** Service-auth tokens outlive the run; the streams need theirs only to open. */
const TOKEN_LIFETIME_S = 30 * 60
/** The issue's targets. */
const TARGET_STREAM_P99_MS = 1_000
const TARGET_FANOUT_P99_MS = 500
const HARD_LIMIT_MS = 15 * 60_000

/** The parts of a `ws` client used here (the package has no types in this repository). */
interface Ws {
  on(event: 'message', listener: (data: Buffer) => void): void
  on(event: 'open' | 'close', listener: () => void): void
  on(event: 'error', listener: (err: Error) => void): void
  terminate(): void
}
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: new (url: string, opts: { headers: Record<string, string> }) => Ws }

const { values: args } = parseArgs({
  options: {
    changes: { type: 'string' },
    'spread-seconds': { type: 'string' },
    'poll-seconds': { type: 'string' },
    subscribers: { type: 'string' },
    groups: { type: 'string' },
    burst: { type: 'string' },
    db: { type: 'string' },
    json: { type: 'string' },
    'poll-changes': { type: 'string' },
    'poll-interval': { type: 'string' },
    'idle-groups': { type: 'string' },
    'idle-seconds': { type: 'string' },
    small: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
})
if (args.help) {
  process.stdout.write(
    'Usage: npm run bench:live -- [--changes 200] [--spread-seconds 60] [--poll-seconds 30] [--subscribers 2000] [--groups 100]\n' +
      '                             [--burst 500] [--db postgres] [--json <file>]\n' +
      '                             [--poll-changes 20] [--poll-interval 2] [--idle-groups 20] [--idle-seconds 60] [--small]\n' +
      '--small: every part small (20 changes over 10 s, 50 streams over 10 groups, a burst of 20, 5 idle groups for 10 s).\n',
  )
  process.exit(0)
}
const size = (full: number, small: number) => (args.small ? small : full)
const CHANGES = positiveInt(args.changes, size(200, 20), '--changes', 5_000)
const SPREAD_S = positiveInt(args['spread-seconds'], size(60, 10), '--spread-seconds', 600)
const POLL_S = positiveInt(args['poll-seconds'], 30, '--poll-seconds', 300)
const SUBSCRIBERS = positiveInt(args.subscribers, size(2_000, 50), '--subscribers', 10_000)
const GROUPS = positiveInt(args.groups, size(100, 10), '--groups', 1_000)
const BURST = positiveInt(args.burst, size(500, 20), '--burst', 10_000)
const APP = {
  changes: CHANGES,
  pollChanges: positiveInt(args['poll-changes'], size(20, 5), '--poll-changes', 500),
  pollIntervalS: positiveInt(args['poll-interval'], 2, '--poll-interval', 30),
  idleGroups: positiveInt(args['idle-groups'], size(20, 5), '--idle-groups', 200),
  idleSeconds: positiveInt(args['idle-seconds'], size(60, 10), '--idle-seconds', 600),
}
checkDbOption(args.db)

const log = progressLog()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Latency {
  p50: number
  p99: number
  samples: number
}
const summary = (ms: number[]): Latency => {
  const sorted = Float64Array.from(ms).sort()
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: ms.length }
}

/** The owner of every seeded group, with a password session and tokens minted by their PDS. */
async function ownerOf(stack: RunningStack) {
  const { file } = stack
  const owner = file.accounts.find((a) => a.name === 'owner')!
  const { accessJwt } = (await call<{ accessJwt: string }>(file.pds, 'com.atproto.server.createSession', { body: { identifier: owner.handle, password: owner.password } })).body
  const token = async (lxm: string) =>
    (
      await call<{ token: string }>(file.pds, 'com.atproto.server.getServiceAuth', {
        params: { aud: file.host.aud, lxm, exp: String(Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_S) },
        headers: { authorization: `Bearer ${accessJwt}` },
      })
    ).body.token
  return { did: owner.did, token }
}

/** A stream that notes when each group's `group.configured` entries arrive, in order. */
function openStream(url: string, token: string, params: URLSearchParams, onConfigured: (group: string, at: number) => void): Promise<Ws> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/xrpc/${SUBSCRIBE}?${params}`, { headers: { authorization: `Bearer ${token}` } })
  ws.on('message', (data) => {
    const at = performance.now()
    const [header, body] = [...decodeAll(data)] as unknown as [{ op: number; t?: string }, { group?: string; change?: { kind?: string } }]
    if (header.op === 1 && header.t === '#change' && body.change?.kind === 'group.configured' && body.group) onConfigured(body.group, at)
  })
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve(ws))
    ws.on('error', reject)
  })
}

/** Resident memory of the host's processes, in bytes (Linux /proc). */
function hostRss(pids: number[]): number | null {
  let total = 0
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (!m) return null
      total += Number(m[1]) * 1024
    } catch {
      return null
    }
  }
  return total
}

/** 1. One subscriber and one 30-second poller watch one group while changes are made there one by one. */
async function measureLatency(stack: RunningStack): Promise<{ stream: Latency; polling: Latency }> {
  const { file } = stack
  const owner = await ownerOf(stack)
  const group = file.groups.find((g) => g.name === 'open')!.did
  const configure = await owner.token('example.groups.configureGroup')
  const listChanges = await owner.token('example.groups.listChanges')
  const sent: number[] = []
  const streamSeen: number[] = []
  const ws = await openStream(file.host.url, await owner.token(SUBSCRIBE), new URLSearchParams({ groups: group }), (g, at) => {
    if (g === group) streamSeen.push(at)
  })
  let cursor = (await call<{ cursor: string }>(file.host.url, 'example.groups.listChanges', { params: { group }, headers: { authorization: `Bearer ${listChanges}` } })).body.cursor
  const pollSeen: number[] = []
  let polling = true
  // The poller starts at a random point of its period, as apps do.
  const poller = (async () => {
    await sleep(Math.random() * POLL_S * 1000)
    while (polling || pollSeen.length < CHANGES) {
      const res = await call<{ changes: { kind: string }[]; cursor: string }>(file.host.url, 'example.groups.listChanges', {
        params: { group, cursor, limit: '100' },
        headers: { authorization: `Bearer ${listChanges}` },
      })
      const at = performance.now()
      for (const c of res.body.changes) if (c.kind === 'group.configured') pollSeen.push(at)
      cursor = res.body.cursor
      if (!polling && pollSeen.length >= CHANGES) break
      await sleep(POLL_S * 1000)
    }
  })()
  log(`  latency: ${CHANGES} changes over ${SPREAD_S} s, a subscriber and a ${POLL_S}-second poller watching…`)
  for (let i = 0; i < CHANGES; i++) {
    sent.push(performance.now())
    await call(file.host.url, 'example.groups.configureGroup', { body: { group, description: `live ${i}` }, headers: { authorization: `Bearer ${configure}` } })
    await sleep((SPREAD_S * 1000) / CHANGES)
  }
  polling = false
  const deadline = performance.now() + 10_000
  while (streamSeen.length < CHANGES && performance.now() < deadline) await sleep(50)
  await poller
  ws.terminate()
  const since = (seen: number[]) => seen.slice(0, CHANGES).map((at, i) => at - sent[i]!)
  return { stream: summary(since(streamSeen)), polling: summary(since(pollSeen)) }
}

interface FanOut {
  subscribers: number
  groups: number
  burst: number
  delivered: number
  expected: number
  latency: Latency
  /** From each write's answer (the change committed) to each subscriber receiving it. */
  afterAnswer: Latency
  memoryPerStreamKiB: number | null
  hostCpuSeconds: number | null
}

/** 2. Many subscribers over many groups, then a burst of changes across the groups. */
async function measureFanOut(stack: RunningStack): Promise<FanOut> {
  const { file } = stack
  const owner = await ownerOf(stack)
  const createGroup = await owner.token('example.groups.createGroup')
  const extra = Math.max(0, GROUPS - file.groups.length)
  log(`  fan-out: creating ${extra} groups…`)
  const made = await mapLimit(Array.from({ length: extra }, (_, i) => i), 4, async (i) =>
    (await call<{ did: string }>(file.host.url, 'example.groups.createGroup', { body: { handle: `live-${i}.groups.test`, displayName: `Live ${i}`, joinPolicy: 'open' }, headers: { authorization: `Bearer ${createGroup}` } })).body.did,
  )
  const groups = [...file.groups.map((g) => g.did), ...made].slice(0, GROUPS)
  const urls = stack.hostProcessUrls()
  const pids = stack.hostPids()
  const rssBefore = hostRss(pids)
  const streamToken = await owner.token(SUBSCRIBE)
  // arrivals[subscriber][group]: when each of that group's burst entries arrived, in order.
  const arrivals = Array.from({ length: SUBSCRIBERS }, () => new Map<string, number[]>())
  // Subscribers spread over the groups (an organizer's app follows its own groups, not the
  // whole host): subscriber i follows group i mod groups, so each group has the same share.
  const followed = (i: number) => groups[i % groups.length]!
  log(`  fan-out: opening ${SUBSCRIBERS} streams over ${groups.length} groups (${Math.ceil(SUBSCRIBERS / groups.length)} per group) on ${urls.length} process(es)…`)
  const sockets = await mapLimit(Array.from({ length: SUBSCRIBERS }, (_, i) => i), 32, (i) =>
    openStream(urls[i % urls.length]!, streamToken, new URLSearchParams({ groups: followed(i) }), (group, at) => {
      const seen = arrivals[i]!
      const list = seen.get(group) ?? []
      list.push(at)
      seen.set(group, list)
    }),
  )
  await sleep(2_000)
  const rssAfter = hostRss(pids)

  log(`  fan-out: a burst of ${BURST} changes across ${groups.length} groups…`)
  const configure = await owner.token('example.groups.configureGroup')
  const cpuBefore = pids.map((p) => processCpuSeconds(p))
  // One lane per group, so each group's writes (and so its entries) are in order.
  const sent = new Map<string, number[]>()
  const answered = new Map<string, number[]>()
  const perGroup = groups.map((g, gi) => ({ g, count: Math.floor(BURST / groups.length) + (gi < BURST % groups.length ? 1 : 0) }))
  await mapLimit(perGroup, 32, async ({ g, count }) => {
    const times: number[] = []
    const answers: number[] = []
    for (let k = 0; k < count; k++) {
      times.push(performance.now())
      await call(urls[k % urls.length]!, 'example.groups.configureGroup', { body: { group: g, description: `burst ${k}` }, headers: { authorization: `Bearer ${configure}` } })
      answers.push(performance.now())
    }
    sent.set(g, times)
    answered.set(g, answers)
  })
  const burstOf = new Map(perGroup.map(({ g, count }) => [g, count]))
  const expected = Array.from({ length: SUBSCRIBERS }, (_, i) => burstOf.get(followed(i)) ?? 0).reduce((a, b) => a + b, 0)
  const delivered = () => arrivals.reduce((n, seen) => n + [...seen.values()].reduce((m, l) => m + l.length, 0), 0)
  const deadline = performance.now() + 60_000
  while (delivered() < expected && performance.now() < deadline) await sleep(100)
  const cpuAfter = pids.map((p) => processCpuSeconds(p))
  const latencies: number[] = []
  const afterAnswer: number[] = []
  for (const seen of arrivals) {
    for (const [g, times] of seen) {
      const sentAt = sent.get(g) ?? []
      const answeredAt = answered.get(g) ?? []
      times.forEach((at, k) => {
        if (sentAt[k] !== undefined) latencies.push(at - sentAt[k])
        // An entry may arrive before its write's answer does: 0 then.
        if (answeredAt[k] !== undefined) afterAnswer.push(Math.max(0, at - answeredAt[k]))
      })
    }
  }
  for (const ws of sockets) ws.terminate()
  const cpu = cpuBefore.every((c) => c !== null) && cpuAfter.every((c) => c !== null) ? cpuAfter.reduce((s, c, i) => s! + c! - cpuBefore[i]!, 0)! : null
  return {
    subscribers: SUBSCRIBERS,
    groups: groups.length,
    burst: BURST,
    delivered: delivered(),
    expected,
    latency: summary(latencies),
    afterAnswer: summary(afterAnswer),
    memoryPerStreamKiB: rssBefore !== null && rssAfter !== null ? (rssAfter - rssBefore) / SUBSCRIBERS / 1024 : null,
    hostCpuSeconds: cpu,
  }
}

const streamLimits = `caller=${SUBSCRIBERS + 10},ip=${SUBSCRIBERS + 10},total=${SUBSCRIBERS + 10}`

async function main() {
  console.log(describeMachine())
  const networks = benchNetworks('bench:live', HARD_LIMIT_MS)
  const figures: Record<string, unknown> = {}
  try {
    log('== SQLite, one host process: starting the local network…')
    const stack = await networks.start({ hostStreamLimits: streamLimits })
    const latency = await measureLatency(stack)
    figures.latency = latency
    figures.app = await measureApp(stack, { ...APP, log })
    figures.fanOutSqlite = await measureFanOut(stack)
    await networks.stopNetwork()
    if (args.db === 'postgres') {
      log('== PostgreSQL, two host processes: starting a throwaway cluster and the local network…')
      figures.fanOutPostgres = await measureFanOut(await networks.start({ hostProcesses: 2, hostStreamLimits: streamLimits }, true))
    }
    report(figures)
    writeFigures(args.json, figures)
  } finally {
    await networks.close()
  }
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`

function report(figures: Record<string, unknown>) {
  const latency = figures.latency as { stream: Latency; polling: Latency }
  console.log('\nchange made elsewhere -> the client has it (write sent to entry received)')
  console.log(`  stream        p50 ${ms(latency.stream.p50)}  p99 ${ms(latency.stream.p99)}  (${latency.stream.samples} changes; target p99 < ${TARGET_STREAM_P99_MS} ms: ${latency.stream.p99 < TARGET_STREAM_P99_MS ? 'met' : 'NOT met'})`)
  console.log(`  ${POLL_S} s polling  p50 ${ms(latency.polling.p50)}  p99 ${ms(latency.polling.p99)}  (${latency.polling.samples} changes)`)
  console.log(`  polling / stream: p50 ${(latency.polling.p50 / latency.stream.p50).toFixed(0)}x, p99 ${(latency.polling.p99 / latency.stream.p99).toFixed(0)}x`)
  reportApp(figures.app as AppFigures)
  for (const [name, key] of [
    ['SQLite, one process', 'fanOutSqlite'],
    ['PostgreSQL, two processes', 'fanOutPostgres'],
  ] as const) {
    const f = figures[key] as FanOut | undefined
    if (!f) continue
    console.log(`\nfan-out, ${name}: ${f.subscribers} streams over ${f.groups} groups, a burst of ${f.burst} changes`)
    console.log(`  delivered     ${f.delivered} of ${f.expected}`)
    console.log(`  latency       p50 ${ms(f.latency.p50)}  p99 ${ms(f.latency.p99)} from the write sent (target p99 < ${TARGET_FANOUT_P99_MS} ms: ${f.latency.p99 < TARGET_FANOUT_P99_MS ? 'met' : 'NOT met'})`)
    console.log(`                p50 ${ms(f.afterAnswer.p50)}  p99 ${ms(f.afterAnswer.p99)} from the write answered (the fan-out alone)`)
    console.log(`  memory        ${f.memoryPerStreamKiB === null ? 'n/a' : `${f.memoryPerStreamKiB.toFixed(1)} KiB`} per open stream (host resident size)`)
    console.log(`  host CPU      ${f.hostCpuSeconds === null ? 'n/a' : `${f.hostCpuSeconds.toFixed(1)} s`} for the burst`)
  }
}

await main()
