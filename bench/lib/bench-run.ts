import fs from 'node:fs'
import { performance } from 'node:perf_hooks'
import { startStack, type RunningStack, type StackOptions } from '../../src/stack/stack.js'
import { startPostgresCluster, type PostgresCluster } from '../../src/stack/postgres-cluster.js'

/** A whole-number option from 1 to `max`; `fallback` when it is not given. */
export function positiveInt(value: string | undefined, fallback: number, flag: string, max: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0 || n > max) throw new Error(`${flag} must be a whole number from 1 to ${max}, not "${value}"`)
  return n
}

/** The --db option names the host's store: "sqlite" (the default) or "postgres". */
export function checkDbOption(value: string | undefined): void {
  if (value !== undefined && value !== 'postgres' && value !== 'sqlite') throw new Error(`--db is "sqlite" (the default) or "postgres", not "${value}"`)
}

/** Progress lines, each stamped with the seconds since the bench started. */
export function progressLog(): (line: string) => void {
  const started = performance.now()
  return (line) => console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`)
}

/** Writes the figures to the --json file, when one was named, and says so. */
export function writeFigures(file: string | undefined, figures: unknown): void {
  if (!file) return
  fs.writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`)
  console.log(`Wrote ${file}.`)
}

/**
 * The local networks a bench measures, one at a time, and the throwaway PostgreSQL
 * cluster some of them keep their host's data in. Whatever runs is stopped at the end
 * (`close`), on Ctrl-C, and when the bench runs past `hardLimitMs`, so a bench never
 * leaves a PLC, a PDS or a host behind.
 */
export function benchNetworks(bench: string, hardLimitMs: number) {
  let stack: RunningStack | undefined
  let cluster: PostgresCluster | undefined
  const stopAll = async () => {
    const s = stack
    stack = undefined
    await s?.stop().catch(() => {})
    const c = cluster
    cluster = undefined
    await c?.stop().catch(() => {})
  }
  const interrupted = (code: number) => () => void stopAll().finally(() => process.exit(code))
  const onSigint = interrupted(130)
  const onSigterm = interrupted(143)
  process.once('SIGINT', onSigint)
  process.once('SIGTERM', onSigterm)
  const watchdog = setTimeout(() => {
    console.error(`${bench} ran past ${hardLimitMs / 60_000} minutes; stopping`)
    void stopAll().finally(() => process.exit(1))
  }, hardLimitMs)
  watchdog.unref()
  return {
    /** Starts the run's PostgreSQL cluster now (otherwise the first network that needs it does). */
    async startCluster(): Promise<void> {
      cluster ??= await startPostgresCluster()
    },
    /** Starts a network; with `postgres`, its host keeps its data in a new database of the run's cluster. */
    async start(opts: Omit<StackOptions, 'hostDb'>, postgres = false): Promise<RunningStack> {
      if (postgres) await this.startCluster()
      stack = await startStack({ ...opts, ...(postgres ? { hostDb: await cluster!.createDatabase() } : {}) })
      return stack
    },
    /** Stops the running network; the cluster stays for the next one. */
    async stopNetwork(): Promise<void> {
      const s = stack
      stack = undefined
      await s?.stop()
    },
    /** Stops everything, and the watchdog. */
    async close(): Promise<void> {
      await stopAll()
      clearTimeout(watchdog)
      process.off('SIGINT', onSigint)
      process.off('SIGTERM', onSigterm)
    },
  }
}

/** Runs a bench to its end: at most `limitMs`, then the process exits 0, or 1 saying why it failed. */
export function runToEnd(bench: string, limitMs: number, main: () => Promise<void>): void {
  const hardStop = setTimeout(() => {
    console.error(`${bench} took more than ${limitMs / 60_000} minutes; stopping`)
    process.exit(1)
  }, limitMs)
  hardStop.unref()
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`${bench} failed: ${(err as Error).stack ?? err}`)
      process.exit(1)
    },
  )
}
