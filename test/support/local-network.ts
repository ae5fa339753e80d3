import { afterAll, beforeAll } from 'vitest'
import { startStack, type RunningStack, type StackOptions } from '../../src/stack/stack.js'
import { createDatabaseAt } from '../../src/stack/postgres-cluster.js'
import { newAccountTag } from '../../src/stack/seed.js'
import { sharedIdentity } from './shared-network.js'
import type { StackAccountName, StackFile, StackGroupName } from '../../src/shared/stack-file.js'

export interface XrpcResult<T = Record<string, unknown>> {
  status: number
  body: T
  headers: Headers
}

/** Plain XRPC over fetch: what any peer would send. */
export async function xrpc<T = Record<string, unknown>>(
  base: string,
  method: string,
  init: { params?: Record<string, string | number | string[] | undefined>; body?: unknown; headers?: Record<string, string> } = {},
): Promise<XrpcResult<T>> {
  const url = new URL(`/xrpc/${method}`, base)
  for (const [k, v] of Object.entries(init.params ?? {})) {
    if (v === undefined) continue
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item))
  }
  const res = await fetch(url, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const text = await res.text()
  let body: unknown = {}
  try {
    body = text ? JSON.parse(text) : {}
  } catch {
    body = { raw: text }
  }
  return { status: res.status, body: body as T, headers: res.headers }
}

/** A person on the local network calling the group host with real service auth. */
export class Caller {
  private accessJwt?: string
  constructor(
    readonly stack: StackFile,
    readonly name: StackAccountName,
  ) {}

  get did() {
    return this.account.did
  }

  get account() {
    return this.stack.accounts.find((a) => a.name === this.name)!
  }

  /** A service-auth token minted by the person's own PDS for `lxm`. */
  async serviceAuth(lxm: string, aud = this.stack.host.aud): Promise<string> {
    if (!this.accessJwt) {
      const session = await xrpc<{ accessJwt: string }>(this.stack.pds, 'com.atproto.server.createSession', {
        body: { identifier: this.account.handle, password: this.account.password },
      })
      if (session.status !== 200) throw new Error(`createSession failed: ${JSON.stringify(session.body)}`)
      this.accessJwt = session.body.accessJwt
    }
    const res = await xrpc<{ token: string }>(this.stack.pds, 'com.atproto.server.getServiceAuth', {
      params: { aud, lxm },
      headers: { authorization: `Bearer ${this.accessJwt}` },
    })
    if (res.status !== 200) throw new Error(`getServiceAuth failed: ${JSON.stringify(res.body)}`)
    return res.body.token
  }

  /** Calls a host method: a query when `body` is absent, a procedure otherwise. */
  async call<T = Record<string, unknown>>(
    method: string,
    init: { params?: Record<string, string | number | string[] | undefined>; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<XrpcResult<T>> {
    const token = await this.serviceAuth(method)
    return xrpc<T>(this.stack.host.url, method, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } })
  }
}

/**
 * The host's store for this run: SQLite unless CONVENE_TEST_PG_URL names the run's
 * throwaway PostgreSQL cluster (the PostgreSQL run of `npm test`, vitest.postgres.config.ts,
 * test/support/postgres-setup.ts), where each test file's host gets a fresh database.
 */
async function testHostDb(): Promise<Pick<StackOptions, 'hostDb'>> {
  const admin = process.env.CONVENE_TEST_PG_URL
  return admin ? { hostDb: await createDatabaseAt(admin) } : {}
}

type NetworkOptions = Pick<StackOptions, 'hostRateLimits' | 'hostStreamLimits' | 'hostMaxGroupsPerAccount' | 'hostChangeLogDays' | 'hostProcesses'> & {
  /**
   * A PLC directory and PDS of the file's own, for tests that take the PLC down or count
   * its look-ups. Default: the run's shared ones (test/support/shared-network.ts).
   */
  ownIdentity?: boolean
}

/**
 * A local network for one test file, stopped afterwards: a group host of its own (its own
 * process and store, the demo groups seeded) and demo people of its own (`owner-<tag>.test`
 * and so on), on the run's shared PLC and PDS, or on a PLC and PDS of its own where there
 * is none (or `ownIdentity` asks). No file sees another's people or groups. `opts` reach
 * `startStack` (e.g. the host's rate limits and groups per account, generous unless a
 * test says otherwise; how long it keeps its change log).
 */
export function useLocalNetwork(opts: NetworkOptions = {}) {
  let running: RunningStack | undefined
  const { ownIdentity, ...stackOpts } = opts
  beforeAll(async () => {
    const identity = ownIdentity ? undefined : sharedIdentity()
    running = await startStack({ ...stackOpts, ...(await testHostDb()), ...(identity ? { identity, accountTag: newAccountTag() } : {}) })
  })
  afterAll(async () => {
    await running?.stop()
  })
  const callers = new Map<StackAccountName, Caller>()
  const net = {
    get stack(): StackFile {
      if (!running) throw new Error('the local network is not running yet (use it inside a test)')
      return running.file
    },
    get running(): RunningStack {
      return running!
    },
    /** A new caller: signs in to its PDS afresh. */
    as: (name: StackAccountName) => new Caller(net.stack, name),
    /** The file's one caller per person, so each signs in to its PDS once, not on every call. */
    caller: (name: StackAccountName) => callers.get(name) ?? callers.set(name, net.as(name)).get(name)!,
    group: (name: StackGroupName) => net.stack.groups.find((g) => g.name === name)!,
  }
  return net
}
