import path from 'node:path'
import { parseArgs } from 'node:util'
import { startStack } from './stack.js'
import { DEFAULT_STACK_FILE, removeStackFile, writeStackFile } from './stack-file-io.js'

const USAGE = `Usage: npm run stack -- [options]

Runs the local network in the foreground: a PLC directory, the real @atproto/pds and
the Convene group host, on 127.0.0.1, seeded with demo accounts and groups. Writes
.stack/stack.json when ready and removes it on exit (Ctrl-C).

Options:
  --plc-port <n>   --pds-port <n>   --host-port <n>   fixed ports (default: free ones)
  --data-dir <dir>  keep state here across starts (default: fresh every start)
  --out <file>      where to write the description (default .stack/stack.json)
  --host-rate-limits <l>  the group host's --rate-limits (default: limits generous
                    enough for the tests and benches; "" for the host's own defaults)
  --host-db <url>   the group host's --db: keep its state in this PostgreSQL database
  --host-processes <n>  run n host processes on that database behind the host's one
                    address (a round-robin proxy); default 1
  -h, --help
`

function port(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new Error(`${flag} must be a port number, not "${v}"`)
  return n
}

async function main() {
  const { values } = parseArgs({
    options: {
      'plc-port': { type: 'string' },
      'pds-port': { type: 'string' },
      'host-port': { type: 'string' },
      'data-dir': { type: 'string' },
      out: { type: 'string' },
      'host-rate-limits': { type: 'string' },
      'host-db': { type: 'string' },
      'host-processes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) return void process.stdout.write(USAGE)

  const stackFile = values.out ? path.resolve(values.out) : DEFAULT_STACK_FILE
  const started = Date.now()
  console.log('Starting the local network…')
  const stack = await startStack({
    plcPort: port(values['plc-port'], '--plc-port'),
    pdsPort: port(values['pds-port'], '--pds-port'),
    hostPort: port(values['host-port'], '--host-port'),
    dataDir: values['data-dir'] && path.resolve(values['data-dir']),
    hostRateLimits: values['host-rate-limits'],
    hostDb: values['host-db'],
    hostProcesses: values['host-processes'] === undefined ? undefined : Number(values['host-processes']),
    log: (l) => console.log(`  ${l}`),
  })
  writeStackFile(stackFile, stack.file)
  console.log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Wrote ${path.relative(process.cwd(), stackFile)}.`)
  console.log(`Sign in as any of ${stack.file.accounts.map((a) => a.handle).join(', ')} with password "${stack.file.accounts[0]!.password}".`)
  console.log('Press Ctrl-C to stop.')

  let stopping = false
  const shutdown = async () => {
    if (stopping) return
    stopping = true
    removeStackFile(stackFile)
    await stack.stop()
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
  process.on('SIGHUP', shutdown)
}

main().catch((err) => {
  console.error(`The local network failed to start: ${(err as Error).message}`)
  process.exit(1)
})
