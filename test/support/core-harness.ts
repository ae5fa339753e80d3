import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { createCore, type AppCore } from '../../src/main/core/app-core.js'
import { dispatch } from '../../src/main/core/ipc/dispatch.js'
import { KeychainSecretStore } from '../../src/main/core/secrets/keychain-secret-store.js'
import type { Channel, ChannelInput, ChannelOutput } from '../../src/shared/ipc/contract.js'
import type { StackAccountName, StackFile } from '../../src/shared/stack-file.js'
import { afterAll, beforeAll } from 'vitest'
import { closeSharedBrowser, completeOnPdsPages } from './browser-sign-in.js'
import { authorizeThroughPdsApi } from './pds-authorize.js'
import type { StackGroupName } from '../../src/shared/stack-file.js'
import type { Updater } from '../../src/main/core/updates/updater.js'

/**
 * The app's core as the shells run it (real keychain under a throwaway service name,
 * caches in a temp folder) against a local network, driven through the IPC contract.
 */
export class CoreHarness {
  private constructor(
    readonly core: AppCore,
    readonly secrets: KeychainSecretStore,
    readonly dataDir: string,
    readonly stack: StackFile,
  ) {}

  static async start(
    stack: StackFile,
    reuse?: { secrets: KeychainSecretStore; dataDir: string },
    opts: { syncIntervalMs?: number; updater?: Updater; liveUpdates?: boolean; liveRetryDelayMs?: (attempt: number) => number } = {},
  ): Promise<CoreHarness> {
    const secrets = reuse?.secrets ?? new KeychainSecretStore(`convene-core-test-${randomUUID()}`)
    const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'convene-core-'))
    const core = await createCore({
      version: 'test',
      shell: 'loopback',
      network: { pdsUrl: stack.pds, hostUrl: stack.host.url, plcUrl: stack.plc, hostAud: stack.host.aud },
      secrets,
      dataDir,
      // Tests drive syncs themselves (sync.now) unless they are about background sync.
      syncIntervalMs: opts.syncIntervalMs ?? 0,
      // Likewise no live connections (they would apply others' changes mid-test) unless asked.
      liveUpdates: opts.liveUpdates ?? false,
      liveRetryDelayMs: opts.liveRetryDelayMs,
      updater: opts.updater,
    })
    return new CoreHarness(core, secrets, dataDir, stack)
  }

  /** A contract call exactly as a shell would make it; throws the envelope's error. */
  async call<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
    const env = await dispatch(this.core.handlers, channel, input)
    if (!env.ok) throw Object.assign(new Error(env.error.message), { code: env.error.code, data: env.error.data })
    return env.value as ChannelOutput<C>
  }

  /** Every envelope that crossed, for tests that inspect what the renderer could see. */
  readonly crossed: unknown[] = []
  async raw(channel: string, input: unknown) {
    const env = await dispatch(this.core.handlers, channel, input)
    this.crossed.push(env)
    return env
  }

  /**
   * Signs an account in through the real PDS's OAuth: by the requests its pages make
   * (pds-authorize.ts), or on the pages themselves in Chromium (`onPages`, for tests
   * about signing in; no-secrets-cross and member-writes-oauth sign in on the pages).
   */
  async signIn(name: StackAccountName, opts: { onPages?: boolean } = {}): Promise<string> {
    const account = this.stack.accounts.find((a) => a.name === name)!
    const start = await this.call('accounts.signIn', { handle: account.handle })
    if (opts.onPages) await completeOnPdsPages(start.authorizeUrl, account.password)
    else await authorizeThroughPdsApi(start.authorizeUrl, account.handle, account.password)
    const signedIn = await this.call('accounts.awaitSignIn', { attemptId: start.attemptId })
    return signedIn.did
  }

  /**
   * As if the app were killed and started again: a new core over the same data folder
   * and keychain. The old one is dropped without any shutdown work (only its SQLite
   * handles are released, which the OS does for a killed process).
   */
  async restartCore(opts: { updater?: Updater; liveUpdates?: boolean } = {}): Promise<CoreHarness> {
    await this.core.close()
    this.successor = await CoreHarness.start(this.stack, { secrets: this.secrets, dataDir: this.dataDir }, opts)
    return this.successor
  }
  /** The core that replaced this one: stopping this harness stops that one. */
  private successor?: CoreHarness

  async stop(): Promise<void> {
    if (this.successor) return this.successor.stop()
    await this.core.close()
    for (const key of await this.secrets.keys()) await this.secrets.delete(key)
    fs.rmSync(this.dataDir, { recursive: true, force: true })
  }
}

/**
 * For a test file: a core signed in as `account` through the PDS's OAuth (owner unless
 * said), with `groups` of the local network added, before the file's tests; stopped
 * after them. `use` receives the core and the account's DID.
 */
export function useSignedInCore(
  net: { stack: StackFile; group(name: StackGroupName): { did: string } },
  opts: { account?: StackAccountName; groups?: StackGroupName[] },
  use: (signedIn: { app: CoreHarness; owner: string }) => void,
) {
  let app: CoreHarness | undefined
  beforeAll(async () => {
    app = await CoreHarness.start(net.stack)
    const owner = await app.signIn(opts.account ?? 'owner')
    for (const name of opts.groups ?? []) await app.call('groups.add', { accountDid: owner, ref: net.group(name).did })
    use({ app, owner })
  })
  afterAll(async () => {
    await app?.stop()
    await closeSharedBrowser()
  })
}

/** Polls until `check` returns a truthy value (outbox sends run in the background). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 100))
  }
}
