import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { SeededGroup } from '../host/seed.js'

export interface HostReady {
  url: string
  serviceDid: string
  aud: string
  groups: SeededGroup[]
}

export interface RunningHostProcess {
  ready: HostReady
  child: ChildProcess
  stop(): Promise<void>
  /** Sends `signal` and waits for the process to exit (`SIGKILL`: a crash, no clean-up). */
  kill(signal: NodeJS.Signals): Promise<void>
}

/** The end of a log file, for error messages that outlive the (temporary) file. */
const tail = (file: string, lines = 20) =>
  fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')

const HOST_BIN = path.resolve(import.meta.dirname, '../host/bin.ts')

/** Names a test run's bundle of the host (host-bundle.ts) for the host processes it starts. */
export const HOST_BUNDLE_ENV = 'CONVENE_HOST_BUNDLE'

/**
 * Names a folder where each host process started writes a CPU profile when it stops
 * (Node's --cpu-prof, which NODE_OPTIONS may not carry): where a host's time goes under
 * `npm run bench:host`, for instance.
 */
export const HOST_CPU_PROFILE_ENV = 'CONVENE_HOST_CPU_PROFILE_DIR'

/** How node runs the host: a test run's bundle of it when there is one (host-bundle.ts), else its sources through tsx. */
const hostEntry = () => {
  const bundle = process.env[HOST_BUNDLE_ENV]
  const profile = process.env[HOST_CPU_PROFILE_ENV]
  return [...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []), ...(bundle ? [bundle] : ['--import', 'tsx', HOST_BIN])]
}

/** Beside a test run's bundle: the entry of a host process started ahead of need (host-bundle.ts, warmHostSource). */
export const WARM_HOST_FILE = 'warm.mjs'

/**
 * The next host process of this test worker, started ahead and loading the host's
 * packages while the current file's tests run (the machine waits on answers much of the
 * time): a file's host then starts in the time its own start-up takes. Only where a test
 * run's bundle has a warm entry; `npm run stack` and the app's tests start hosts as before.
 */
let warmHost: { child: ChildProcess; bundle: string } | null = null

function spawnWarmHost(): { child: ChildProcess; bundle: string } | null {
  const bundle = process.env[HOST_BUNDLE_ENV]
  const entry = bundle && path.join(path.dirname(bundle), WARM_HOST_FILE)
  // A profiled host is started with Node's flags for it, which a warm one did not get.
  if (!entry || !fs.existsSync(entry) || process.env[HOST_CPU_PROFILE_ENV]) return null
  const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'pipe'] })
  // An idle one never keeps the worker alive; the worker's end closes its stdin, which ends it.
  child.unref()
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void } | null)?.unref?.()
  child.once('error', () => {})
  return { child, bundle }
}

/**
 * Starts the host with `args`, in the warm process when one is ready and was made from
 * the bundle asked for now (its output then copied to `log`), and starts the next warm
 * one; else as a new process. (A bench may run two bundles in turn: another's warm host
 * must never stand in for the one asked for.)
 */
function startHostChild(args: string[], logFile: string, log: number): ChildProcess {
  const ready = warmHost && warmHost.child.exitCode === null && warmHost.child.signalCode === null ? warmHost : null
  const claimed = ready && ready.bundle === process.env[HOST_BUNDLE_ENV] && !process.env[HOST_CPU_PROFILE_ENV] ? ready.child : null
  if (ready && !claimed) ready.child.stdin?.end()
  warmHost = spawnWarmHost()
  if (!claimed) return spawn(process.execPath, [...hostEntry(), ...args], { stdio: ['ignore', log, log] })
  for (const stream of [claimed.stdin, claimed.stdout, claimed.stderr]) (stream as unknown as { ref?: () => void } | null)?.ref?.()
  claimed.ref()
  const out = fs.createWriteStream(logFile, { flags: 'a' })
  claimed.stdout!.pipe(out, { end: false })
  claimed.stderr!.pipe(out, { end: false })
  claimed.once('close', () => out.end())
  fs.closeSync(log)
  // One that died since it was checked makes startHostProcess say so (the pipe's EPIPE is no news).
  claimed.stdin!.once('error', () => {})
  claimed.stdin!.end(`${JSON.stringify({ argv: args, env: process.env })}\n`)
  return claimed
}

/**
 * Runs the group host as its own process, as it runs in production, and waits for its
 * ready file. Its log goes to `logFile` so the stack's own output stays readable.
 */
export async function startHostProcess(opts: {
  port: number
  plcUrl: string
  dataDir: string
  seedFile: string
  /** The host key (src/host/secrets); the stack keeps it beside, not inside, the host's data. */
  keyFile: string
  /** The host's JSON log lines (stdout) and anything on stderr. */
  logFile: string
  /** More command-line options for the host (handle domains, rate limits). */
  extraArgs?: string[]
  timeoutMs?: number
}): Promise<RunningHostProcess> {
  const readyFile = path.join(opts.dataDir, 'ready.json')
  fs.rmSync(readyFile, { force: true })
  const log = fs.openSync(opts.logFile, 'a')
  const child = startHostChild(
    [
      '--port',
      String(opts.port),
      '--plc-url',
      opts.plcUrl,
      '--data-dir',
      opts.dataDir,
      '--seed',
      opts.seedFile,
      '--ready-file',
      readyFile,
      '--key-file',
      opts.keyFile,
      // The local network's PDS is on 127.0.0.1: the host must reach it for members' records.
      '--allow-loopback-peers',
      ...(opts.extraArgs ?? []),
    ],
    opts.logFile,
    log,
  )
  let exited: number | null = null
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code ?? 1
      resolve()
    }),
  )

  const deadline = Date.now() + (opts.timeoutMs ?? 30_000)
  while (!fs.existsSync(readyFile)) {
    if (exited !== null) {
      throw new Error(`group host exited with code ${exited} before it was ready:\n${tail(opts.logFile)}`)
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`group host was not ready within ${opts.timeoutMs ?? 30_000} ms:\n${tail(opts.logFile)}`)
    }
    await sleep(50)
  }
  const ready = JSON.parse(fs.readFileSync(readyFile, 'utf8')) as HostReady
  return {
    ready,
    child,
    async stop() {
      if (exited !== null) return
      child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exit
      clearTimeout(killer)
    },
    async kill(signal) {
      if (exited !== null) return
      child.kill(signal)
      await exit
    },
  }
}
