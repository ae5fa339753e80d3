import path from 'node:path'
import { parseArgs } from 'node:util'

export interface HostConfig {
  port: number
  /** Address to bind; loopback unless the operator says otherwise. */
  bind: string
  /** The URL peers use to reach this host; written into DID documents. */
  publicUrl: string
  dataDir: string
  plcUrl: string
  /** Use this service DID instead of minting one on the PLC at first start. */
  serviceDid?: string
  seedFile?: string
  readyFile?: string
}

export const HOST_USAGE = `Usage: npm run host -- [options]

The Convene reference group host: serves every example.groups.* method.

Options:
  --port <n>          TCP port to listen on (default 2590; 0 picks a free one)
  --bind <addr>       address to bind (default 127.0.0.1)
  --public-url <url>  URL peers reach this host at (default http://127.0.0.1:<port>)
  --data-dir <dir>    where the SQLite database lives (default ./.host-data)
  --plc-url <url>     PLC directory to resolve and mint DIDs with (required)
  --service-did <did> the host's service DID (default: minted on the PLC on first start)
  --seed <file>       JSON seed of groups to create on first start
  --ready-file <file> write {url, serviceDid, aud, groups} here once serving
  -h, --help          show this help
`

export class UsageError extends Error {}

export function parseHostArgs(argv: string[]): HostConfig | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      bind: { type: 'string' },
      'public-url': { type: 'string' },
      'data-dir': { type: 'string' },
      'plc-url': { type: 'string' },
      'service-did': { type: 'string' },
      seed: { type: 'string' },
      'ready-file': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) return 'help'
  const port = Number(values.port ?? 2590)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}"`)
  }
  const plcUrl = values['plc-url']
  if (!plcUrl) throw new UsageError('--plc-url is required: the host mints and resolves DIDs there')
  const bind = values.bind ?? '127.0.0.1'
  return {
    port,
    bind,
    publicUrl: values['public-url'] ?? '',
    dataDir: path.resolve(values['data-dir'] ?? '.host-data'),
    plcUrl,
    serviceDid: values['service-did'],
    seedFile: values.seed,
    readyFile: values['ready-file'],
  }
}
