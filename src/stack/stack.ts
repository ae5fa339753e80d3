import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../node/free-port.js'
import { startPlc, type RunningPlc } from './plc.js'
import { startPds, type RunningPds } from './pds.js'
import { startHostProcess, type RunningHostProcess } from './host-process.js'
import { startRoundRobin } from './round-robin.js'
import { PdsClient } from './pds-client.js'
import { writeNewHostKeyFile } from '../host/secrets/host-key.js'
import { createDemoAccounts, publishLexicons, writeHostSeed } from './seed.js'
import type { StackFile } from '../shared/stack-file.js'

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..')

export interface StackOptions {
  plcPort?: number
  pdsPort?: number
  hostPort?: number
  /** Keep state here across starts; default: a fresh temporary directory each start. */
  dataDir?: string
  /**
   * The host's `--rate-limits`. Default: {@link GENEROUS_RATE_LIMITS}, since the test
   * suites, e2e runs and `npm run bench:host` make far more calls from one account and
   * one address than a person would; `''` gives the host's own defaults.
   */
  hostRateLimits?: string
  /** The host's `--stream-limits` (the change stream's); default: the host's own. */
  hostStreamLimits?: string
  /** The host's `--max-groups-per-account`. Default: {@link GENEROUS_GROUPS_PER_ACCOUNT}, for the same reason. */
  hostMaxGroupsPerAccount?: number
  /** The host's `--change-log-days` (fractions allowed: tests of pruning use seconds); default: the host's own. */
  hostChangeLogDays?: number
  /**
   * The host's `--db`: a PostgreSQL URL (issue 18). Default: SQLite in the host's data
   * directory.
   */
  hostDb?: string
  /**
   * How many host processes serve that database behind the host's one address (a
   * round-robin TCP proxy, round-robin.ts); more than one needs `hostDb`. Default 1.
   */
  hostProcesses?: number
  /** Progress lines for people watching; silent by default. */
  log?: (line: string) => void
  /**
   * A PLC directory and PDS already running (one a test run shares, see
   * {@link startIdentityNetwork}): only the accounts and the group host are made anew.
   * Default: a PLC and a PDS of this stack's own.
   */
  identity?: IdentityNetworkAddresses
  /**
   * The middle of the demo accounts' handles, `<name>-<tag>.test`. Default `demo`; a
   * stack on a shared PDS needs a tag of its own, since a PDS has one account per handle.
   */
  accountTag?: string
}

/** Where a running PLC directory and PDS answer, and whose repo serves the lexicons. */
export interface IdentityNetworkAddresses {
  plc: string
  pds: string
  lexiconAuthority: string
}

export interface IdentityNetwork extends IdentityNetworkAddresses {
  /** The PLC directory itself: its outages and look-up counts, for tests. */
  plcDirectory: RunningPlc
  stop(): Promise<void>
}

/**
 * A PLC directory and the real PDS, with the lexicons published, and nothing else: the
 * first half of {@link startStack}, and what a test run shares between its files
 * (test/support/shared-network.ts), each starting its own host and people on it.
 */
export async function startIdentityNetwork(
  dataDir: string,
  opts: Pick<StackOptions, 'plcPort' | 'pdsPort' | 'log'> = {},
): Promise<IdentityNetwork> {
  const log = opts.log ?? (() => {})
  const plc = await startPlc(opts.plcPort ?? (await freePort()))
  log(`PLC directory   ${plc.url}`)
  let pds: RunningPds | undefined
  const stop = async () => {
    await pds?.close().catch(() => {})
    await plc.close().catch(() => {})
  }
  try {
    pds = await startPds({ port: opts.pdsPort ?? (await freePort()), plcUrl: plc.url, dataDirectory: path.join(dataDir, 'pds') })
    log(`PDS             ${pds.url}`)
    const lexiconAuthority = await publishLexicons(new PdsClient(pds.url))
    pds.setLexiconAuthority(lexiconAuthority)
    return { plc: plc.url, pds: pds.url, lexiconAuthority, plcDirectory: plc, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

/** Group handles on the local network: `<name>.groups.test` (decisions 6.3). */
export const STACK_HANDLE_DOMAIN = '.groups.test'

/**
 * Limits high enough that the local network's own test and benchmark loads never meet
 * them (the bench creates dozens of groups as one owner and makes thousands of calls).
 * Tests of the limits start a network with the host's defaults or lower ones instead.
 */
export const GENEROUS_RATE_LIMITS = 'createGroup=100000,procedures=10000000,queries=10000000,unauthenticated=10000000'

/** The same for how many groups one account may create (the bench makes up to 2 × --requests as one owner). */
export const GENEROUS_GROUPS_PER_ACCOUNT = 100_000

export interface RunningStack {
  file: StackFile
  dataDir: string
  stop(): Promise<void>
  /**
   * Stops the group host with `signal` (default SIGTERM; SIGKILL to simulate a crash) and
   * starts it again on the same port, data directory and PLC, so `file` stays true.
   */
  restartHost(opts?: { signal?: NodeJS.Signals; whileDown?: () => Promise<void> }): Promise<void>
  /** Each host process's own address, behind the host's one (tests reach a chosen one). */
  hostProcessUrls(): string[]
  /** The host processes' ids (the bench samples their CPU). */
  hostPids(): number[]
  /** The host's PostgreSQL URL when it has one (tests read its state); else it is SQLite in `dataDir`. */
  hostDb?: string
  /** Runs `fn` while the PLC directory refuses connections (an identity outage), then brings it back. */
  whilePlcDown<T>(fn: () => Promise<T>): Promise<T>
  /** How many times the PLC directory has been asked for `did`'s document. */
  plcLookups(did: string): number
}

/**
 * Starts the local network: PLC, the real PDS, and the group host as its own process,
 * then seeds the demo accounts and groups. Everything listens on 127.0.0.1 only.
 */
export async function startStack(opts: StackOptions = {}): Promise<RunningStack> {
  const log = opts.log ?? (() => {})
  const ownsDataDir = !opts.dataDir
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'convene-stack-'))
  fs.mkdirSync(dataDir, { recursive: true })
  const cleanups: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {})
    if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    // A PLC and PDS of the stack's own unless it shares running ones.
    const own = opts.identity ? null : await startIdentityNetwork(dataDir, opts)
    if (own) cleanups.push(() => own.stop())
    const { plc: plcUrl, pds: pdsUrl, lexiconAuthority } = own ?? opts.identity!
    const plc = own?.plcDirectory ?? null

    const accounts = await createDemoAccounts(new PdsClient(pdsUrl), opts.accountTag)
    log(`accounts        ${accounts.map((a) => a.handle).join(', ')}`)

    const seedFile = path.join(dataDir, 'host-seed.json')
    writeHostSeed(accounts, seedFile)
    // The host key lives beside the host's data directory, not in it; a kept data
    // directory keeps its key too, so the host restarts on it.
    const keyFile = path.join(dataDir, 'host.key')
    if (!fs.existsSync(keyFile)) writeNewHostKeyFile(keyFile)
    const processes = opts.hostProcesses ?? 1
    if (!Number.isInteger(processes) || processes < 1) throw new Error('hostProcesses must be a whole number from 1')
    if (processes > 1 && !opts.hostDb) throw new Error('several host processes need a shared database: give hostDb (--host-db) a PostgreSQL URL')
    // Several processes: the proxy takes the host's address, the processes free ports
    // behind it, and every process writes the proxy's address into DID documents.
    const proxy = processes > 1 ? await startRoundRobin(opts.hostPort ?? (await freePort())) : null
    if (proxy) cleanups.push(() => proxy.close())
    const hostOptsFor = async (i: number) => ({
      // One process with no port asked for binds port 0 and says which it took (its ready
      // file's URL): a port probed free beforehand could be taken by another test file's
      // process before the host bound it (seen: EADDRINUSE with two Vitest workers).
      port: proxy ? await freePort() : (opts.hostPort ?? 0),
      plcUrl,
      dataDir: path.join(dataDir, i === 0 ? 'host' : `host-${i + 1}`),
      seedFile,
      keyFile,
      logFile: path.join(dataDir, i === 0 ? 'host.log' : `host-${i + 1}.log`),
      extraArgs: [
        '--handle-domain',
        STACK_HANDLE_DOMAIN,
        // The group sign-in resolves people's `.test` handles where they live.
        '--handle-resolver',
        pdsUrl,
        ...((opts.hostRateLimits ?? GENEROUS_RATE_LIMITS) ? ['--rate-limits', opts.hostRateLimits ?? GENEROUS_RATE_LIMITS] : []),
        '--max-groups-per-account',
        String(opts.hostMaxGroupsPerAccount ?? GENEROUS_GROUPS_PER_ACCOUNT),
        ...(opts.hostDb ? ['--db', opts.hostDb] : []),
        ...(opts.hostStreamLimits ? ['--stream-limits', opts.hostStreamLimits] : []),
        ...(opts.hostChangeLogDays !== undefined ? ['--change-log-days', String(opts.hostChangeLogDays)] : []),
        ...(proxy ? ['--public-url', `http://127.0.0.1:${proxy.port}`] : []),
      ],
    })
    const hostOptsList: Awaited<ReturnType<typeof hostOptsFor>>[] = []
    for (let i = 0; i < processes; i++) hostOptsList.push(await hostOptsFor(i))
    const hostOpts = hostOptsList[0]!
    // One after another: the first start mints the service DID and seeds; the others
    // find both in the shared database.
    const startHosts = async () => {
      const started: RunningHostProcess[] = []
      for (const o of hostOptsList) {
        const h = await startHostProcess(o)
        // A restart comes back on the port this start took, so the stack file stays true.
        if (o.port === 0) o.port = Number(new URL(h.ready.url).port)
        started.push(h)
      }
      proxy?.setTargets(hostOptsList.map((o) => o.port))
      return started
    }
    let hosts: RunningHostProcess[] = await startHosts()
    let host: RunningHostProcess = hosts[0]!
    cleanups.push(async () => {
      for (const h of hosts) await h.stop()
    })
    log(`group host      ${host.ready.url} (${host.ready.serviceDid})${opts.hostDb ? ` on PostgreSQL, ${processes} process${processes > 1 ? 'es' : ''}` : ''}`)
    log(`host log        ${hostOpts.logFile} (JSON lines)`)

    const file: StackFile = {
      plc: plcUrl,
      pds: pdsUrl,
      host: { url: host.ready.url, serviceDid: host.ready.serviceDid, aud: host.ready.aud },
      accounts,
      groups: host.ready.groups.map((g) => ({
        name: g.handle.split('.')[0] as StackFile['groups'][number]['name'],
        handle: g.handle,
        did: g.did,
        joinPolicy: g.joinPolicy,
      })),
      lexiconAuthority,
      pid: process.pid,
    }
    const restartHost = async ({ signal = 'SIGTERM', whileDown }: { signal?: NodeJS.Signals; whileDown?: () => Promise<void> } = {}) => {
      for (const h of hosts) await (signal === 'SIGTERM' ? h.stop() : h.kill(signal))
      // What a client does during an outage (the host's port refuses connections).
      await whileDown?.()
      hosts = await startHosts()
      host = hosts[0]!
      if (host.ready.url !== file.host.url || host.ready.serviceDid !== file.host.serviceDid) {
        throw new Error(`the group host came back as ${host.ready.serviceDid} at ${host.ready.url}, not as before`)
      }
    }
    const hostProcessUrls = () => hostOptsList.map((o) => `http://127.0.0.1:${o.port}`)
    const hostPids = () => hosts.map((h) => h.child.pid!).filter(Boolean)
    // A shared PLC is another process's: an outage or its look-ups need a stack of one's own.
    const ownPlc = () => plc ?? failNoOwnPlc()
    return { file, dataDir, stop, restartHost, whilePlcDown: (fn) => ownPlc().whileDown(fn), plcLookups: (did) => ownPlc().lookups(did), hostProcessUrls, hostPids, hostDb: opts.hostDb }
  } catch (err) {
    await stop()
    throw err
  }
}

function failNoOwnPlc(): never {
  throw new Error('this stack shares its PLC directory (the identity option): start one with its own to take the PLC down or count its look-ups')
}
