import { execFileSync, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { freePort } from '../node/free-port.js'

/**
 * A throwaway PostgreSQL cluster for the tests and the bench (issue 18): `initdb` in a
 * temporary directory, listening only on a unix socket in that directory (no TCP), on a
 * free port number, with trust authentication for its one superuser: nobody else can
 * reach the socket. Uses the system's PostgreSQL (Debian's `postgresql` package,
 * scripts/system-deps.sh; Homebrew's elsewhere). As root, the server runs as `nobody`,
 * since postgres refuses to run as root.
 */
export interface PostgresCluster {
  /** The cluster's own `postgres` database, as its superuser (to create others). */
  adminUrl: string
  /** A URL for a new, empty database with byte-order collation, as the host requires. */
  createDatabase(name?: string): Promise<string>
  stop(): Promise<void>
}

/** Where initdb/pg_ctl are: PG_BIN, then Debian's versioned directories (newest first), then PATH. */
export function findPostgresBin(): string | null {
  const fromEnv = process.env.PG_BIN
  if (fromEnv && fs.existsSync(path.join(fromEnv, 'initdb'))) return fromEnv
  const debian = '/usr/lib/postgresql'
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
    for (const v of versions) if (fs.existsSync(path.join(debian, v, 'bin', 'initdb'))) return path.join(debian, v, 'bin')
  }
  const which = spawnSync(process.platform === 'win32' ? 'where' : 'which', ['initdb'], { encoding: 'utf8' })
  const found = which.status === 0 ? which.stdout.split(/\r?\n/)[0]?.trim() : ''
  return found ? path.dirname(found) : null
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

/** Runs a PostgreSQL program, as `nobody` when we are root. */
function runPg(bin: string, program: string, args: string[]): void {
  const exe = path.join(bin, program)
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', 'nobody', '--', exe, ...args]] : [exe, args]
  execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] })
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = findPostgresBin()
  if (!bin) throw new Error('PostgreSQL is not installed (initdb not found): run scripts/system-deps.sh test, or set PG_BIN')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-pg-'))
  if (isRoot()) execFileSync('chown', ['nobody', dir])
  const data = path.join(dir, 'data')
  const port = await freePort()
  try {
    runPg(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--locale=C', '-E', 'UTF8', '--no-sync'])
    // fsync stays on: the bench measures what a real deployment pays for durability.
    runPg(bin, 'pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-o', `-k ${dir} -p ${port} -c listen_addresses='' -c max_connections=200`, 'start'])
  } catch (err) {
    const log = path.join(dir, 'server.log')
    const detail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : ''
    fs.rmSync(dir, { recursive: true, force: true })
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? ''
    throw new Error(`could not start a PostgreSQL cluster: ${(err as Error).message}\n${stderr}\n${detail}`)
  }
  const url = (db: string) => `postgres://postgres@${encodeURIComponent(dir)}:${port}/${db}`
  let stopped = false
  return {
    adminUrl: url('postgres'),
    createDatabase: (name) => createDatabaseAt(url('postgres'), name),
    async stop() {
      if (stopped) return
      stopped = true
      try {
        runPg(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/**
 * Creates a new, empty database next to the one `adminUrl` names (which must allow
 * CREATE DATABASE), with byte-order collation as the host requires; returns its URL.
 */
export async function createDatabaseAt(adminUrl: string, name = `convene_${crypto.randomBytes(6).toString('hex')}`): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`)
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE template0 LOCALE 'C' ENCODING 'UTF8'`)
  } finally {
    await client.end()
  }
  const u = new URL(adminUrl)
  u.pathname = `/${name}`
  return u.toString()
}
