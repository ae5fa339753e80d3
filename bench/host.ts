/**
 * `npm run bench:host`: how many authenticated writes per second the group host takes,
 * and how fast it answers them, under concurrent load on loopback, beside
 *
 *   - the real @atproto/pds of the same local network doing authenticated
 *     `com.atproto.repo.createRecord` in the same run, and
 *   - this machine's own limit, measured in the same run: how many ES256K service-auth
 *     signatures one core verifies per second with Node's built-in crypto, exactly as
 *     the host verifies them (`nodeVerifySignature`), and with `@atproto/crypto`'s
 *     pure-JS verify for comparison. Two cores verify twice as many.
 *
 * Everything the client needs (accounts, service-auth tokens, DPoP proofs) is made
 * before the timed sections: minting tokens is the PDS's work, verifying them the host's.
 * The load runs in a worker thread, so it does not share an event loop with the PLC and
 * the PDS that this process serves; the host is a process of its own, as in production.
 *
 * Every phase is bounded by a request count and by time. Options: --requests <n>
 * (per phase, default 2000), --concurrency <n> (default 64), --accounts <n> (callers,
 * default 256), --max-seconds <n> (per phase, default 30), --verify-seconds <n> (default 3),
 * --json <file> (also write the figures there), --against <git ref> (also the host as it
 * was at that ref, measured first in the same run, so each setup shows × that one).
 */
import os from 'node:os'
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import type { RunningStack } from '../src/stack/stack.js'
import { DEMO_PASSWORD } from '../src/stack/seed.js'
import { createDpopKey, dpopProof, isNonceChallenge, type DpopKey } from '../test/support/dpop.js'
import { runLoad, type LoadJob, type LoadResult, type PreparedRequest } from './lib/load.js'
import { measureVerifyLimit, type VerifyRate } from './lib/verify-limit.js'
import { call, mapLimit } from './lib/xrpc.js'
import { describeMachine, processCpuSeconds } from './lib/machine.js'
import { benchNetworks, checkDbOption, positiveInt, progressLog, writeFigures } from './lib/bench-run.js'
import { hostBundleAt } from './lib/host-at.js'
import { buildHostBundle, HOST_BUNDLE_ENV } from '../src/stack/host-bundle.js'

/** The issue's targets for the host's authenticated writes. */
const TARGET_VS_PDS = 10
const TARGET_VS_TWO_CORE_LIMIT = 0.5
const TARGET_P99_MS = 50
/** PostgreSQL: two host processes against one (issue 18). */
const TARGET_PG_SCALING = 1.5
/** No run may outlive this, whatever happens (the phases themselves are bounded too). */
const HARD_LIMIT_MS = 5 * 60_000
/** Each further way of running the host (SETUPS) adds its own network start and phases. */
const HARD_LIMIT_PER_SETUP_MS = 4 * 60_000
/** Service-auth tokens are minted to outlive the whole run (the PDS allows up to an hour). */
const TOKEN_LIFETIME_S = 30 * 60
/** Requests in the one-at-a-time phase (the host's latency without a queue). */
const SERIAL_REQUESTS = 200

const CALENDAR = 'community.lexicon.calendar'
const EVENT = `${CALENDAR}.event`

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string' },
    concurrency: { type: 'string' },
    accounts: { type: 'string' },
    'max-seconds': { type: 'string' },
    'verify-seconds': { type: 'string' },
    json: { type: 'string' },
    db: { type: 'string' },
    processes: { type: 'string' },
    'no-steps': { type: 'boolean' },
    against: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
})
if (args.help) {
  process.stdout.write(
    'Usage: npm run bench:host -- [--requests 2000] [--concurrency 64] [--accounts 256] [--max-seconds 30] [--verify-seconds 3] [--json <file>]\n' +
      '                             [--db postgres [--processes 2]] [--no-steps] [--against <git ref>]\n' +
      'Runs the host on SQLite without its speed-ups, with the token cache, and with group commit too (--no-steps: only\n' +
      'the last); with --db postgres also on a throwaway PostgreSQL cluster with one process and with --processes;\n' +
      'with --against, first the host as it was at that git ref (SQLite, all speed-ups), and every setup × it.\n',
  )
  process.exit(0)
}
const REQUESTS = positiveInt(args.requests, 2000, '--requests', 20_000)
const CONCURRENCY = positiveInt(args.concurrency, 64, '--concurrency', 512)
const ACCOUNTS = positiveInt(args.accounts, 256, '--accounts', 2000)
const MAX_SECONDS = positiveInt(args['max-seconds'], 30, '--max-seconds', 120)
const VERIFY_SECONDS = positiveInt(args['verify-seconds'], 3, '--verify-seconds', 30)
checkDbOption(args.db)
const PROCESSES = positiveInt(args.processes, 2, '--processes', 16)

/** One way of running the host, measured in turn in the same run. */
interface HostSetup {
  name: string
  /** CONVENE_HOST_BASELINE for the host (src/host/baseline.ts): speed-ups left out. */
  baseline?: string
  postgres?: boolean
  processes?: number
  /** Runs the host from this bundle (another ref's host, --against) instead of today's sources. */
  bundle?: string
}

const SETUPS: HostSetup[] = [
  ...(args['no-steps']
    ? []
    : [
        { name: 'SQLite, no token cache, no group commit', baseline: 'token-cache,group-commit' },
        { name: 'SQLite + token cache', baseline: 'group-commit' },
      ]),
  { name: 'SQLite + token cache + group commit' },
  ...(args.db === 'postgres'
    ? [
        { name: 'PostgreSQL, 1 process', postgres: true, processes: 1 },
        ...(PROCESSES > 1 ? [{ name: `PostgreSQL, ${PROCESSES} processes`, postgres: true, processes: PROCESSES }] : []),
      ]
    : []),
]

const log = progressLog()

interface Account {
  handle: string
  did: string
  accessJwt: string
}

interface Phase {
  result: LoadResult
  /** CPU seconds the host process used per wall second during the phase (1.0 = one core). */
  hostCpu: number | null
  /** The same for this process (PLC, PDS and the load generator). */
  benchCpu: number
}

/** CPU seconds used so far by all the host's processes; null where /proc is missing. */
function hostCpuSeconds(pids: number[]): number | null {
  if (pids.length === 0) return null
  let total = 0
  for (const pid of pids) {
    const s = processCpuSeconds(pid)
    if (s === null) return null
    total += s
  }
  return total
}

/** Runs one load phase and samples the CPU the host and this process used meanwhile. */
async function measure(job: LoadJob, hostPids: number[]): Promise<Phase> {
  const hostBefore = hostCpuSeconds(hostPids)
  const benchBefore = process.cpuUsage()
  const t0 = performance.now()
  const result = await runLoad(job)
  const wall = (performance.now() - t0) / 1000
  const hostAfter = hostCpuSeconds(hostPids)
  const bench = process.cpuUsage(benchBefore)
  const hostCpu = hostBefore !== null && hostAfter !== null ? (hostAfter - hostBefore) / wall : null
  const benchCpu = (bench.user + bench.system) / 1e6 / wall
  log(
    `${job.name}: ${result.ok} ok, ${result.failed} failed in ${result.seconds.toFixed(2)} s → ${result.perSecond.toFixed(0)}/s, ` +
      `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms` +
      (result.nonceRetries ? `, ${result.nonceRetries} DPoP nonce retries` : '') +
      (result.timedOut ? ` (stopped by the ${job.maxSeconds} s bound after ${result.sent} requests)` : ''),
  )
  for (const f of result.failures) log(`  failure: ${f}`)
  return { result, hostCpu, benchCpu }
}

/** The machine, as described before the run started (load included). */
let machine = ''

const json = (body: unknown) => JSON.stringify(body)
const post = (path: string, headers: Record<string, string>, body: unknown): PreparedRequest => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json', ...headers },
  body: json(body),
})

async function main() {
  console.log('Convene group host bench: authenticated writes on loopback\n')
  machine = describeMachine()
  console.log(machine)
  console.log(`load     ${REQUESTS} requests per phase at ${CONCURRENCY} concurrent, ${ACCOUNTS} caller accounts, each phase at most ${MAX_SECONDS} s\n`)

  // The machine's limit first, while nothing else runs.
  log(`measuring ES256K verifications per second on one core (${VERIFY_SECONDS} s each)…`)
  const limit = await measureVerifyLimit({ seconds: VERIFY_SECONDS })
  for (const r of [limit.node, limit.pureJs]) log(`  ${r.name}: ${r.perSecond.toFixed(0)}/s (${r.count} in ${r.seconds.toFixed(2)} s)`)

  const networks = benchNetworks('bench:host', HARD_LIMIT_MS + (SETUPS.length - (args.against ? 0 : 1)) * HARD_LIMIT_PER_SETUP_MS)
  const cleanups: (() => void)[] = []
  try {
    if (SETUPS.some((s) => s.postgres)) {
      log('starting a throwaway PostgreSQL cluster…')
      await networks.startCluster()
    }
    const setups = SETUPS.map((s) => ({ ...s }))
    if (args.against) {
      log(`preparing the host at ${args.against} to measure beside today's…`)
      const at = await hostBundleAt(args.against, log)
      cleanups.push(at.remove)
      // Today's host bundled the same way, so the two differ in their code only.
      const today = await buildHostBundle({ warm: false })
      cleanups.push(today.remove)
      for (const s of setups) s.bundle = today.file
      // In the order A B B A (then taken together by name), so drift over the run (the
      // machine warming, other work) weighs on both alike.
      const before: HostSetup = { name: `SQLite, host at ${at.sha.slice(0, 8)}`, bundle: at.file }
      setups.splice(0, setups.length, before, ...setups, ...setups.map((s) => ({ ...s })), { ...before })
    }
    const results: SetupResult[] = []
    for (const setup of setups) {
      log(`== ${setup.name}: starting the local network (PLC, PDS, group host)…`)
      // The host processes inherit the environment the stack spawns them with.
      if (setup.baseline) process.env.CONVENE_HOST_BASELINE = setup.baseline
      else delete process.env.CONVENE_HOST_BASELINE
      if (setup.bundle) process.env[HOST_BUNDLE_ENV] = setup.bundle
      let stack: RunningStack
      try {
        stack = await networks.start({ hostProcesses: setup.processes }, setup.postgres)
      } finally {
        delete process.env.CONVENE_HOST_BASELINE
        delete process.env[HOST_BUNDLE_ENV]
      }
      results.push({ setup, phases: await measureSetup(stack) })
      await networks.stopNetwork()
    }
    report(mergeRepeats(results), limit)
  } finally {
    log('stopping…')
    await networks.close()
    for (const c of cleanups) c()
  }
}

type PhaseRow = { label: string; kind: 'host' | 'pds' | 'serial'; phase: Phase }

/**
 * Setups measured more than once (--against's A B B A) as one: per phase the mean of the
 * rates and of the medians, the larger p99 and maximum, and every failure, so neither the
 * better nor the worse run stands alone.
 */
function mergeRepeats(results: SetupResult[]): SetupResult[] {
  const byName = new Map<string, SetupResult[]>()
  for (const r of results) byName.set(r.setup.name, [...(byName.get(r.setup.name) ?? []), r])
  return [...byName.values()].map((runs) => {
    if (runs.length === 1) return runs[0]!
    const phases = runs[0]!.phases.map((row) => {
      const same = runs.map((r) => r.phases.find((p) => p.label === row.label)!.phase)
      const mean = (f: (p: Phase) => number) => same.reduce((sum, p) => sum + f(p), 0) / same.length
      const result = { ...row.phase.result, perSecond: mean((p) => p.result.perSecond), p50: mean((p) => p.result.p50), p99: Math.max(...same.map((p) => p.result.p99)), max: Math.max(...same.map((p) => p.result.max)), failed: same.reduce((n, p) => n + p.result.failed, 0) }
      return { ...row, phase: { ...row.phase, result } }
    })
    return { setup: { ...runs[0]!.setup, name: `${runs[0]!.setup.name} (×${runs.length})` }, phases }
  })
}
interface SetupResult {
  setup: HostSetup
  phases: PhaseRow[]
}

/** Every phase against one running network: the host's writes, and the PDS's beside them. */
async function measureSetup(stack: RunningStack): Promise<PhaseRow[]> {
  const { file } = stack
  const hostPids = stack.hostPids()
  log(`  PDS ${file.pds}, host ${file.host.url} (pid ${hostPids.join(', ')})`)
  const host = file.host.url
  const owner = file.accounts.find((a) => a.name === 'owner')!
  const ownerSession = (await call<{ accessJwt: string }>(file.pds, 'com.atproto.server.createSession', { body: { identifier: owner.handle, password: owner.password } })).body
  const serviceAuth = async (accessJwt: string, lxm: string) =>
    (
      await call<{ token: string }>(file.pds, 'com.atproto.server.getServiceAuth', {
        params: { aud: file.host.aud, lxm, exp: String(Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_S) },
        headers: { authorization: `Bearer ${accessJwt}` },
      })
    ).body.token

  // Callers: fresh accounts on the PDS, so every host write is a real change of state.
  log(`creating ${ACCOUNTS} accounts on the PDS…`)
  const tag = Date.now().toString(36).slice(-4)
  const accounts: Account[] = await mapLimit(Array.from({ length: ACCOUNTS }, (_, i) => i), 6, async (i) => {
    const handle = `bench-${tag}-${i.toString().padStart(4, '0')}.test`
    const { body } = await call<{ did: string; accessJwt: string }>(file.pds, 'com.atproto.server.createAccount', {
      body: { handle, password: DEMO_PASSWORD, email: `${handle}@convene.invalid` },
    })
    return { handle, did: body.did, accessJwt: body.accessJwt }
  })

  // Enough groups that every (account, group) pair is one distinct write.
  const groupsPerPolicy = Math.ceil(REQUESTS / ACCOUNTS)
  log(`creating groups: ${groupsPerPolicy} open and ${groupsPerPolicy} approval (with the seeded ones), and a warm-up group…`)
  const createGroupToken = await serviceAuth(ownerSession.accessJwt, 'example.groups.createGroup')
  const newGroup = async (name: string, joinPolicy: string) =>
    (
      await call<{ did: string }>(host, 'example.groups.createGroup', {
        body: { handle: `${name}.groups.test`, joinPolicy },
        headers: { authorization: `Bearer ${createGroupToken}` },
      })
    ).body.did
  const openGroups = [file.groups.find((g) => g.name === 'open')!.did]
  const approvalGroups = [file.groups.find((g) => g.name === 'approval')!.did]
  for (let i = 1; i < groupsPerPolicy; i++) {
    openGroups.push(await newGroup(`bench-${tag}-open-${i}`, 'open'))
    approvalGroups.push(await newGroup(`bench-${tag}-approval-${i}`, 'approval'))
  }
  const warmupGroup = await newGroup(`bench-${tag}-warmup`, 'open')
  const serialGroup = await newGroup(`bench-${tag}-serial`, 'open')

  log('minting service-auth tokens (one per caller and method, reused within their lifetime, as the app does)…')
  const joinTokens = await mapLimit(accounts, 8, (a) => serviceAuth(a.accessJwt, 'example.groups.requestJoin'))
  const admitToken = await serviceAuth(ownerSession.accessJwt, 'example.groups.admitMember')

  // The group credential: a calendar space in the open group, and a grant for it.
  const openGroup = openGroups[0]!
  const calendar = `at://${openGroup}/space/${CALENDAR}/self`
  await call(host, 'example.groups.createSpace', {
    body: {
      group: openGroup,
      type: CALENDAR,
      skey: 'self',
      name: 'Calendar',
      readableBy: ['owner', 'admin', 'moderator', 'member'],
      credentialScopes: [{ role: 'owner', scopes: [EVENT] }],
    },
    headers: { authorization: `Bearer ${await serviceAuth(ownerSession.accessJwt, 'example.groups.createSpace')}` },
  })
  const dpopKey: DpopKey = await createDpopKey()
  const dpopState: { nonce?: string } = {}
  const grantUrl = `${host}/xrpc/example.groups.getGroupAuth`
  const grantAuth = await serviceAuth(ownerSession.accessJwt, 'example.groups.getGroupAuth')
  const askGrant = async () => {
    const res = await fetch(grantUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${grantAuth}`, 'content-type': 'application/json', dpop: await dpopProof(dpopKey, { htm: 'POST', htu: grantUrl, nonce: dpopState.nonce }) },
      body: json({ group: openGroup, space: calendar }),
    })
    dpopState.nonce = res.headers.get('dpop-nonce') ?? dpopState.nonce
    return res
  }
  let grantRes = await askGrant()
  if (isNonceChallenge(grantRes)) grantRes = await askGrant()
  if (!grantRes.ok) throw new Error(`getGroupAuth failed (${grantRes.status}): ${await grantRes.text()}`)
  const grant = (await grantRes.json()) as { accessJwt: string; pds: string }
  const writeUrl = `${grant.pds}/xrpc/com.atproto.space.createRecord`
  /** Proofs for `n` createRecord calls, made now (outside the timed part) with the latest nonce. */
  const createRecordRequests = async (n: number, label: string): Promise<PreparedRequest[]> => {
    const when = new Date(Date.now() + 7 * 86_400_000).toISOString()
    const out: PreparedRequest[] = []
    for (let i = 0; i < n; i++) {
      const proof = await dpopProof(dpopKey, { htm: 'POST', htu: writeUrl, nonce: dpopState.nonce, accessToken: grant.accessJwt })
      out.push(
        post('/xrpc/com.atproto.space.createRecord', { authorization: `DPoP ${grant.accessJwt}`, dpop: proof }, {
          space: calendar,
          repo: openGroup,
          collection: EVENT,
          record: { $type: EVENT, name: `${label} ${i}`, startsAt: when, createdAt: new Date().toISOString() },
        }),
      )
    }
    return out
  }
  const dpopRetry = { key: dpopKey, htu: writeUrl, accessToken: grant.accessJwt }

  const job = (name: string, base: string, requests: PreparedRequest[], extra: Partial<LoadJob> = {}): LoadJob => ({
    name,
    base,
    requests,
    concurrency: CONCURRENCY,
    maxSeconds: MAX_SECONDS,
    ...extra,
  })
  /** Request k: caller k mod A, into group ⌊k / A⌋, so no two requests are the same write. */
  const joins = (groups: string[]) =>
    Array.from({ length: REQUESTS }, (_, k) => {
      const a = k % ACCOUNTS
      return post('/xrpc/example.groups.requestJoin', { authorization: `Bearer ${joinTokens[a]!}` }, { group: groups[Math.floor(k / ACCOUNTS)]! })
    })

  // Warm-up (not counted): the same code paths, in a group of their own.
  log('warming up the host and the PDS (not counted)…')
  await runLoad(job('warm-up requestJoin', host, accounts.map((_, a) => post('/xrpc/example.groups.requestJoin', { authorization: `Bearer ${joinTokens[a]!}` }, { group: warmupGroup }))))
  await runLoad(job('warm-up createRecord', host, await createRecordRequests(Math.min(256, REQUESTS), 'Warm-up'), { dpop: dpopRetry }))
  const pdsPost = (a: Account, i: number, label: string): PreparedRequest =>
    post('/xrpc/com.atproto.repo.createRecord', { authorization: `Bearer ${a.accessJwt}` }, {
      repo: a.did,
      collection: 'app.bsky.feed.post',
      record: { $type: 'app.bsky.feed.post', text: `${label} ${i}`, createdAt: new Date().toISOString() },
    })
  await runLoad(job('warm-up PDS createRecord', file.pds, Array.from({ length: Math.min(128, REQUESTS) }, (_, i) => pdsPost(accounts[i % ACCOUNTS]!, i, 'warm-up'))))

  log('measuring…')
  const phases: PhaseRow[] = []
  // One at a time first: the host's own service time, with no queue in front of it.
  const serial = accounts.slice(0, SERIAL_REQUESTS).map((_, a) => post('/xrpc/example.groups.requestJoin', { authorization: `Bearer ${joinTokens[a]!}` }, { group: serialGroup }))
  phases.push({ label: 'host requestJoin, open, 1 at a time', kind: 'serial', phase: await measure(job('host requestJoin (open, one at a time)', host, serial, { concurrency: 1 }), hostPids) })
  phases.push({
    label: 'host requestJoin, open (admitted)',
    kind: 'host',
    phase: await measure(job('host requestJoin (open → admitted)', host, joins(openGroups)), hostPids),
  })
  const pending = await measure(job('host requestJoin (approval → pending)', host, joins(approvalGroups)), hostPids)
  phases.push({ label: 'host requestJoin, approval (pending)', kind: 'host', phase: pending })
  // The owner decides every request just made, with one reused admitMember token.
  const admits = Array.from({ length: REQUESTS }, (_, k) =>
    post('/xrpc/example.groups.admitMember', { authorization: `Bearer ${admitToken}` }, {
      group: approvalGroups[Math.floor(k / ACCOUNTS)]!,
      did: accounts[k % ACCOUNTS]!.did,
      decision: 'admit',
    }),
  ).slice(0, pending.result.sent)
  phases.push({ label: 'host admitMember (owner)', kind: 'host', phase: await measure(job('host admitMember (owner admits)', host, admits), hostPids) })
  phases.push({
    label: 'host createRecord, group credential',
    kind: 'host',
    phase: await measure(job('host createRecord (group credential, DPoP)', host, await createRecordRequests(REQUESTS, 'Meetup'), { dpop: dpopRetry }), hostPids),
  })
  phases.push({
    label: 'PDS com.atproto.repo.createRecord',
    kind: 'pds',
    phase: await measure(job('PDS createRecord (password session)', file.pds, Array.from({ length: REQUESTS }, (_, i) => pdsPost(accounts[i % ACCOUNTS]!, i, 'bench post'))), hostPids),
  })

  return phases
}


const n = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–')
const rateOf = (r: SetupResult, label: string) => r.phases.find((p) => p.label === label)?.phase.result.perSecond ?? NaN

/**
 * Why a phase fell short, from where the CPU went: host processes short of a core each
 * were waiting (on the database, or for cores the PLC, the PDS, the load generator or
 * other work on the machine held); host processes at a core each were the limit, and a
 * profile of them (NODE_OPTIONS=--cpu-prof on the host) says where it goes.
 */
function whyMissed(phase: Phase, processes: number): string {
  const host = phase.hostCpu ?? NaN
  if (!Number.isFinite(host)) return 'no CPU figures on this system'
  const cores = os.availableParallelism()
  if (host < 0.85 * Math.min(processes, cores)) {
    return `the host processes were not CPU-bound (${n(host * 100)}% of ${processes} core(s)); the rest went to the bench process (${n(phase.benchCpu * 100)}%: PLC, PDS, load) and to other work on this ${cores}-core machine`
  }
  return `the host processes were CPU-bound (${n(host * 100)}%): profile one with NODE_OPTIONS=--cpu-prof to see where`
}

/** Every setup's table, then what each step changed, and PostgreSQL's scaling, against its targets. */
function report(results: SetupResult[], limit: { node: VerifyRate; pureJs: VerifyRate }) {
  const met = new Map<string, boolean>()
  for (const r of results) met.set(r.setup.name, reportSetup(r.setup.name, r.phases, limit, r.setup.processes ?? 1))
  const hostLabels = results[0]!.phases.filter((p) => p.kind !== 'pds').map((p) => p.label)
  if (results.length > 1) {
    const base = results[0]!
    console.log(`\nEach step's effect (req/s, and × ${base.setup.name}; all measured in this run):\n`)
    console.log(`${'phase'.padEnd(38)} ${results.map((r) => r.setup.name.slice(0, 30).padStart(31)).join(' ')}`)
    for (const label of hostLabels) {
      const cells = results.map((r) => `${n(rateOf(r, label))} (${n(rateOf(r, label) / rateOf(base, label), 2)}×)`.padStart(31))
      console.log(`${label.padEnd(38)} ${cells.join(' ')}`)
    }
  }
  const pg1 = results.find((r) => r.setup.postgres && (r.setup.processes ?? 1) === 1)
  const pgN = results.find((r) => r.setup.postgres && (r.setup.processes ?? 1) > 1)
  if (pg1 && pgN) {
    console.log(`\nPostgreSQL, ${pgN.setup.processes} processes against 1 (target ≥ ${TARGET_PG_SCALING}×):\n`)
    for (const label of hostLabels.filter((l) => pg1.phases.find((p) => p.label === l)?.kind === 'host')) {
      const ratio = rateOf(pgN, label) / rateOf(pg1, label)
      const cpu = pgN.phases.find((p) => p.label === label)?.phase
      console.log(
        `${label.padEnd(38)} ${n(ratio, 2)}× ${ratio >= TARGET_PG_SCALING ? 'met' : `MISSED by ${n((1 - ratio / TARGET_PG_SCALING) * 100)}%`}` +
          (cpu ? `   (host processes used ${n((cpu.hostCpu ?? NaN) * 100)}% of a core, the bench process ${n(cpu.benchCpu * 100)}%: 2 cores = 200%)` : ''),
      )
      if (ratio < TARGET_PG_SCALING && cpu) console.log(`${''.padEnd(38)} why: ${whyMissed(cpu, pgN.setup.processes ?? 1)}`)
    }
  }
  console.log(
    '\nNote: on a 2-core machine the PLC, the PDS, the load generator and the host(s) share the cores (the "bench" CPU column);' +
      ' other work on the machine makes the figures noisy: compare setups within one run.',
  )
  if (args.json) {
    writeFigures(args.json, {
      machine,
      concurrency: CONCURRENCY,
      verifyLimit: { oneCore: limit.node.perSecond, twoCores: 2 * limit.node.perSecond, pureJsOneCore: limit.pureJs.perSecond },
      setups: results.map((r) => ({
        ...r.setup,
        allTargetsMet: met.get(r.setup.name),
        phases: r.phases.map(({ label, kind, phase }) => ({ label, kind, ...phase.result, hostCpu: phase.hostCpu, benchCpu: phase.benchCpu })),
      })),
      targets: { vsPds: TARGET_VS_PDS, vsTwoCoreLimit: TARGET_VS_TWO_CORE_LIMIT, p99Ms: TARGET_P99_MS, postgresScaling: TARGET_PG_SCALING },
    })
  }
}

/** One setup's table and its targets; says whether every target was met. */
function reportSetup(name: string, phases: PhaseRow[], limit: { node: VerifyRate; pureJs: VerifyRate }, processes: number): boolean {
  const pds = phases.find((p) => p.kind === 'pds')!.phase.result
  const oneCore = limit.node.perSecond
  const twoCore = 2 * oneCore
  const cpu = (x: number | null) => (x === null ? '   –' : `${(x * 100).toFixed(0)}%`.padStart(4))

  console.log(`\n${name}: results (${CONCURRENCY} concurrent, loopback; CPU: share of one core used by the host process / by the bench process, i.e. PLC + PDS + load generator)\n`)
  const head = `${'phase'.padEnd(38)} ${'ok'.padStart(6)} ${'fail'.padStart(5)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)}  host  bench  ${'×PDS'.padStart(6)} ${'×limit2'.padStart(8)}`
  console.log(head)
  console.log('-'.repeat(head.length))
  for (const { label, kind, phase } of phases) {
    const r = phase.result
    const vsPds = kind === 'host' ? n(r.perSecond / pds.perSecond, 1) : ''
    const vsLimit = kind === 'serial' ? '' : n(r.perSecond / twoCore, 2)
    console.log(
      `${label.padEnd(38)} ${String(r.ok).padStart(6)} ${String(r.failed).padStart(5)} ${n(r.perSecond).padStart(7)} ${n(r.p50, 1).padStart(7)} ${n(r.p99, 1).padStart(7)} ${n(r.max, 1).padStart(7)}  ${cpu(phase.hostCpu)}  ${cpu(phase.benchCpu)}  ${vsPds.padStart(6)} ${vsLimit.padStart(8)}`,
    )
  }
  console.log(`${'ES256K verify, node:crypto, 1 core'.padEnd(38)} ${' '.repeat(13)} ${n(oneCore).padStart(7)}`)
  console.log(`${'ES256K verify, node:crypto, 2 cores'.padEnd(38)} ${' '.repeat(13)} ${n(twoCore).padStart(7)}   (the limit: 2 × one core)`)
  console.log(`${'ES256K verify, @atproto/crypto JS, 1 core'.padEnd(38)} ${' '.repeat(13)} ${n(limit.pureJs.perSecond).padStart(7)}   (${n(oneCore / limit.pureJs.perSecond, 1)}× slower than node:crypto)`)

  console.log(`\nTargets for the host's authenticated writes: ≥ ${TARGET_VS_PDS}× the PDS (${n(TARGET_VS_PDS * pds.perSecond)}/s), ≥ ${TARGET_VS_TWO_CORE_LIMIT}× the two-core verify limit (${n(TARGET_VS_TWO_CORE_LIMIT * twoCore)}/s), p99 < ${TARGET_P99_MS} ms\n`)
  const mark = (ok: boolean) => (ok ? 'met   ' : 'MISSED')
  let allMet = true
  for (const { label, kind, phase } of phases) {
    if (kind !== 'host') continue
    const r = phase.result
    const vsPds = r.perSecond / pds.perSecond
    const vsLimit = r.perSecond / twoCore
    const clean = r.failed === 0 && !r.timedOut
    const checks = [vsPds >= TARGET_VS_PDS, vsLimit >= TARGET_VS_TWO_CORE_LIMIT, r.p99 < TARGET_P99_MS, clean]
    allMet &&= checks.every(Boolean)
    console.log(
      `${label.padEnd(38)} ${mark(checks[0]!)} ${n(vsPds, 1)}× PDS   ${mark(checks[1]!)} ${n(vsLimit, 2)}× limit   ${mark(checks[2]!)} p99 ${n(r.p99, 1)} ms` +
        (clean ? '' : `   (${r.failed} failed${r.timedOut ? ', stopped by the time bound' : ''})`),
    )
    if (!checks.every(Boolean)) console.log(`${''.padEnd(38)} why: ${whyMissed(phase, processes)}`)
  }
  console.log(`\n${allMet ? 'Every target met.' : 'Not every target met (see MISSED above).'}`)
  // Little's law: with N requests always in flight, the mean latency is N / throughput.
  console.log(
    `With ${CONCURRENCY} requests always in flight, mean latency = ${CONCURRENCY} / throughput: a p99 under ${TARGET_P99_MS} ms needs more than ` +
      `${n(CONCURRENCY / (TARGET_P99_MS / 1000))} requests per second; one at a time, the host answered requestJoin in ${n(phases.find((p) => p.kind === 'serial')?.phase.result.p50 ?? NaN, 1)} ms (p50).`,
  )
  if (pds.failed) console.log(`Note: ${pds.failed} PDS requests failed; its rate counts successes only.`)
  return allMet
}


main().catch((err: unknown) => {
  console.error(`bench:host failed: ${(err as Error).stack ?? String(err)}`)
  process.exitCode = 1
})
