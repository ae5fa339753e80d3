import path from 'node:path'
import { parseArgs } from 'node:util'
import { isValidDid } from '@atproto/syntax'
import { defaultHandleDomains, normalizeHandleDomain } from './groups/handle-domains.js'
import { DEFAULT_RATE_LIMITS, parseRateLimits, type RateLimits } from './limits/rate-limits.js'
import { HOST_KEY_ENV } from './secrets/host-key.js'
import { DEFAULT_MAX_GROUPS_PER_ACCOUNT } from './groups/groups-per-account.js'
import { isPostgresUrl } from './db/postgres.js'
import { DEFAULT_STREAM_LIMITS, parseStreamLimits, type StreamLimits } from './stream/stream-limits.js'
import { DEFAULT_CHANGE_LOG_DAYS } from './change-log-retention.js'

/** What the command line says; `startHost` adds the host key it loads. */
export interface HostOptions {
  port: number
  /** Address to bind; loopback unless the operator says otherwise. */
  bind: string
  /** The URL peers use to reach this host; written into DID documents. */
  publicUrl: string
  dataDir: string
  /** A PostgreSQL URL (`postgres://…`): state there, shared by several processes; else SQLite in `dataDir`. */
  db?: string
  plcUrl: string
  /** Use this service DID instead of minting one on the PLC at first start. */
  serviceDid?: string
  seedFile?: string
  readyFile?: string
  /** New group handles must be one name under one of these (`.groups.test`): decisions 6.3. */
  handleDomains: string[]
  /** Calls per window per account, group or IP (decisions 6.4); 0 turns one off. */
  rateLimits: RateLimits
  /** The change stream's limits (src/host/stream/stream-limits.ts); defaults when absent. */
  streamLimits?: StreamLimits
  /** How many groups one account may create on this host, ever (each is kept, with a PLC DID). */
  maxGroupsPerAccount: number
  /** How long the change log keeps an entry, in days (fractions allowed); DEFAULT_CHANGE_LOG_DAYS when absent. */
  changeLogDays?: number
  /**
   * Express's `trust proxy`: behind a reverse proxy, which hops' X-Forwarded-For to
   * believe, so per-IP limits count the client, not the proxy. Off by default.
   */
  trustProxy?: string
  /** The host key's file (else CONVENE_HOST_KEY): it seals the keys in host.sqlite. */
  keyFile?: string
  /**
   * Development only: fetches from peers (members' PDSes, and people's PDSes in the group
   * sign-in) may reach loopback addresses, as the local network needs. DID documents and
   * handles never do, nor anything private or link-local (src/node/safe-fetch.ts).
   */
  allowLoopbackPeers: boolean
  /**
   * Where the group sign-in resolves people's handles (a server answering
   * com.atproto.identity.resolveHandle); DNS and https well-known when unset. The local
   * network's `.test` handles resolve only at its PDS. Trusted as the PLC is: it may be
   * on loopback.
   */
  handleResolverUrl?: string
}

export interface HostConfig extends HostOptions {
  /** The AES-256 key sealing the stored keys (src/host/secrets); never logged. */
  hostKey: Buffer
}

export const HOST_USAGE = `Usage: npm run host -- [options]
       npm run host -- new-key-file <path>
       npm run host -- rotate-key (--data-dir <dir> | --db <url>) --key-file <old> --new-key-file <new>
       npm run host -- takedown-repo <group-did> (--data-dir <dir> | --db <url>) [--key-file <k>] [--reason <text>]
       npm run host -- restore-repo <group-did> (--data-dir <dir> | --db <url>) [--key-file <k>]

The Convene reference group host: serves every example.groups.* method.

Options:
  --port <n>          TCP port to listen on (default 2590; 0 picks a free one)
  --bind <addr>       address to bind (default 127.0.0.1)
  --public-url <url>  URL peers reach this host at (default http://127.0.0.1:<port>)
  --data-dir <dir>    where the SQLite database lives (default ./.host-data)
  --db <url>          keep all state in PostgreSQL instead (postgres://user:pass@host/db;
                      PGPASSWORD etc. are honoured), so several host processes can serve
                      one database behind one address. Its collation must be "C".
  --plc-url <url>     PLC directory to resolve and mint DIDs with (required; the only
                      address DID resolution may reach on loopback or a private network)
  --service-did <did> the host's service DID (default: minted on the PLC on first start)
  --seed <file>       JSON seed of groups to create on first start
  --ready-file <file> write {url, serviceDid, aud, groups} here once serving
  --handle-domain <d> new groups' handles must be one name under this domain, e.g.
                      .groups.example.com; repeat for several. The host answers
                      /.well-known/atproto-did and resolveHandle for these only.
                      (default: .<public URL host name> if it is a DNS name, else .groups.test)
  --rate-limits <l>   change the rate limits: "off", or name=count pairs joined by
                      commas, from: createGroup (per account, default ${DEFAULT_RATE_LIMITS.createGroup}),
                      procedures (per account and group, default ${DEFAULT_RATE_LIMITS.procedures}),
                      queries (per account, default ${DEFAULT_RATE_LIMITS.queries}),
                      unauthenticated (per IP, default ${DEFAULT_RATE_LIMITS.unauthenticated}), each per window,
                      and window (seconds, default ${DEFAULT_RATE_LIMITS.windowSeconds}); count 0 turns that one off.
                      e.g. --rate-limits createGroup=5,queries=20000
  --stream-limits <l> change the change stream's limits (example.groups.subscribeChanges):
                      name=number pairs joined by commas, from: caller (open streams per
                      account, default ${DEFAULT_STREAM_LIMITS.perCaller}), ip (per address, default ${DEFAULT_STREAM_LIMITS.perIp}), total
                      (default ${DEFAULT_STREAM_LIMITS.total}), all per process; stall (seconds a frame may wait for a slow client, default
                      ${DEFAULT_STREAM_LIMITS.stallSeconds}), heartbeat (seconds between pings, default ${DEFAULT_STREAM_LIMITS.heartbeatSeconds}), window
                      (entries kept in memory for live streams, default ${DEFAULT_STREAM_LIMITS.window})
  --max-groups-per-account <n>
                      how many groups one account may create on this host in all
                      (default ${DEFAULT_MAX_GROUPS_PER_ACCOUNT}; seeded groups do not count)
  --change-log-days <n>
                      how long the change log (listChanges, subscribeChanges) keeps an
                      entry, in days (default ${DEFAULT_CHANGE_LOG_DAYS}; fractions allowed). A client away
                      longer than that reads its groups whole again.
  --trust-proxy <v>   behind a reverse proxy: Express's "trust proxy" (e.g. loopback,
                      or a hop count) so per-IP limits see the client's address
  --key-file <path>   the host key (base64, 32 bytes) that encrypts the service key, the
                      token secrets and every group's key in host.sqlite; or set
                      ${HOST_KEY_ENV}. Required: keep it outside the data directory
                      and its backups. Make one with: npm run host -- new-key-file <path>
  --allow-loopback-peers
                      development only: let fetches from members' PDSes (and people's,
                      in the group sign-in) reach loopback addresses; never private or
                      link-local ones (npm run stack passes it). Off by default.
  --handle-resolver <url>
                      resolve people's handles for the group sign-in with this server's
                      com.atproto.identity.resolveHandle (default: DNS and https well-known;
                      npm run stack passes its PDS)
  -h, --help          show this help

Commands:
  new-key-file <path>  write a new random host key to <path> (mode 600; never overwrites)
  rotate-key           re-encrypt every stored key with --new-key-file, in --data-dir's
                       SQLite or --db's PostgreSQL (every host process stopped; then
                       start them with the new key). The old key: --key-file or
                       ${HOST_KEY_ENV}.
  takedown-repo <did>  stop serving a group's public repo (its reads answer
                       RepoTakendown, listRepos lists it inactive, its firehose frames
                       are not sent, nothing more is committed); the host may run.
                       The host key as for serving; --reason is kept for operators only.
  restore-repo <did>   end such a takedown: everything is served again as it was.

Logs: JSON lines on stdout, one per request (reqId, method, nsid, status, ms, caller,
error), with the request id echoed in X-Request-Id. LOG_LEVEL sets the level.
`

export class UsageError extends Error {}

export function parseHostArgs(argv: string[]): HostOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      bind: { type: 'string' },
      'public-url': { type: 'string' },
      'data-dir': { type: 'string' },
      db: { type: 'string' },
      'plc-url': { type: 'string' },
      'service-did': { type: 'string' },
      seed: { type: 'string' },
      'ready-file': { type: 'string' },
      'handle-domain': { type: 'string', multiple: true },
      'rate-limits': { type: 'string' },
      'stream-limits': { type: 'string' },
      'max-groups-per-account': { type: 'string' },
      'change-log-days': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'key-file': { type: 'string' },
      'allow-loopback-peers': { type: 'boolean' },
      'handle-resolver': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) return 'help'
  const port = Number(values.port ?? 2590)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}"`)
  }
  const maxGroupsPerAccount = Number(values['max-groups-per-account'] ?? DEFAULT_MAX_GROUPS_PER_ACCOUNT)
  if (!Number.isSafeInteger(maxGroupsPerAccount) || maxGroupsPerAccount < 1) {
    throw new UsageError(`--max-groups-per-account must be a whole number from 1, not "${values['max-groups-per-account']}"`)
  }
  const changeLogDays = Number(values['change-log-days'] ?? DEFAULT_CHANGE_LOG_DAYS)
  if (!Number.isFinite(changeLogDays) || changeLogDays <= 0 || changeLogDays > 36_500) {
    throw new UsageError(`--change-log-days must be a number of days above 0 and at most 36500 (fractions allowed), not "${values['change-log-days']}"`)
  }
  const plcUrl = values['plc-url']
  if (!plcUrl) throw new UsageError('--plc-url is required: the host mints and resolves DIDs there')
  const bind = values.bind ?? '127.0.0.1'
  if (values.db !== undefined && !isPostgresUrl(values.db)) {
    throw new UsageError('--db takes a PostgreSQL URL (postgres://…); without it the host uses SQLite in --data-dir')
  }
  let handleDomains: string[]
  let rateLimits: RateLimits
  let streamLimits: StreamLimits
  try {
    handleDomains = values['handle-domain']?.length
      ? [...new Set(values['handle-domain'].map(normalizeHandleDomain))]
      : defaultHandleDomains(values['public-url'])
    rateLimits = parseRateLimits(values['rate-limits'])
    streamLimits = parseStreamLimits(values['stream-limits'])
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
  return {
    port,
    bind,
    publicUrl: values['public-url'] ?? '',
    dataDir: path.resolve(values['data-dir'] ?? '.host-data'),
    db: values.db,
    plcUrl,
    serviceDid: values['service-did'],
    seedFile: values.seed,
    readyFile: values['ready-file'],
    handleDomains,
    rateLimits,
    streamLimits,
    maxGroupsPerAccount,
    changeLogDays,
    trustProxy: values['trust-proxy'],
    keyFile: values['key-file'],
    allowLoopbackPeers: values['allow-loopback-peers'] ?? false,
    handleResolverUrl: values['handle-resolver'],
  }
}

export interface RotateKeyOptions {
  dataDir: string
  /** The host's PostgreSQL database, when it keeps its state there (as `--db` when serving). */
  db?: string
  keyFile?: string
  newKeyFile: string
}

export function parseRotateKeyArgs(argv: string[]): RotateKeyOptions {
  const { values } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, db: { type: 'string' }, 'key-file': { type: 'string' }, 'new-key-file': { type: 'string' } },
    strict: true,
  })
  if (!values['new-key-file']) throw new UsageError('rotate-key needs --new-key-file <path> (make it with: npm run host -- new-key-file <path>)')
  if (values.db !== undefined && !isPostgresUrl(values.db)) {
    throw new UsageError('--db takes a PostgreSQL URL (postgres://…); without it rotate-key works on the SQLite database in --data-dir')
  }
  return {
    dataDir: path.resolve(values['data-dir'] ?? '.host-data'),
    db: values.db,
    keyFile: values['key-file'],
    newKeyFile: values['new-key-file'],
  }
}

export interface RepoTakedownOptions {
  did: string
  dataDir: string
  db?: string
  keyFile?: string
  reason: string | null
}

/** `takedown-repo` and `restore-repo`: the group's DID, where the host keeps its state, and a note. */
export function parseRepoTakedownArgs(command: 'takedown-repo' | 'restore-repo', argv: string[]): RepoTakedownOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, db: { type: 'string' }, 'key-file': { type: 'string' }, ...(command === 'takedown-repo' ? { reason: { type: 'string' } } : {}) },
    allowPositionals: true,
    strict: true,
  })
  const did = positionals[0]
  if (positionals.length !== 1 || !did || !isValidDid(did)) throw new UsageError(`${command} takes one group DID (did:plc:… or did:web:…)`)
  if (values.db !== undefined && !isPostgresUrl(values.db)) throw new UsageError(`--db takes a PostgreSQL URL (postgres://…); without it ${command} works on the SQLite database in --data-dir`)
  const reason = typeof values.reason === 'string' ? values.reason.slice(0, 1000) : null
  return { did, dataDir: path.resolve(values['data-dir'] ?? '.host-data'), db: values.db, keyFile: values['key-file'], reason }
}
