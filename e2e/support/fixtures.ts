import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { _electron as electron, test as base, expect, type BrowserContext, type ElectronApplication, type Page, type Route } from '@playwright/test'
import { launchLoopbackApp } from '../../src/main/loopback/launch.js'
import { KeychainSecretStore } from '../../src/main/core/secrets/keychain-secret-store.js'
import { electronBinary } from '../../src/dev/electron-binary.js'
import { callLog, type CallLog } from '../../src/main/core/ipc/dispatch.js'
import type { Channel } from '../../src/shared/ipc/contract.js'
import type { StackAccount, StackAccountName, StackFile } from '../../src/shared/stack-file.js'
import { ELECTRON_SKIP_REASON } from './electron-skip.js'
import { createDemoAccounts, newAccountTag } from '../../src/stack/seed.js'
import { PdsClient } from '../../src/stack/pds-client.js'
import { workerNetwork } from './worker-network.js'
import { authorizeThroughPdsApi } from '../../test/support/pds-authorize.js'

/** Which shell carries the app in a test: set per Playwright project (playwright.config.ts). */
export type Shell = 'loopback' | 'electron'

export interface AppUnderTest {
  shell: Shell
  stack: StackFile
  /** Where the app keeps its caches, for seeding them where real data would take too long to make. */
  dataDir: string
  /** Whether sign-ins go through the PDS's pages (the `signInOnPages` option). */
  signInOnPages: boolean
  /** Opens the app's window at its start (the loopback shell's launch address; Electron's own window). */
  open(page: Page): Promise<void>
  /** Loopback shell only: the launch address (with its secret) and the bare origin. */
  launchUrl?: string
  origin?: string
  /** Electron only: the running application, for checks on the main process. */
  electronApp?: ElectronApplication
  /** What the core was called with on `channel` since launch, oldest first: counted in the core, so in either shell. */
  callInputs(channel: Channel): Promise<unknown[]>
  /** Calls per channel the core has served since the app started (counted in the core, so in both shells). */
  callCounts(): Promise<Partial<Record<Channel, number>>>
}

/** Whose people a test works with: see the `cast` option. */
export type Cast = 'fresh' | 'demo'

/**
 * Where sign-in pages open. The loopback shell's window opens them in a new tab; the
 * Electron shell hands them to the OS browser, whose next address this gives (tests
 * stand in for the OS browser with a tab of the test's own Chromium).
 */
const outsideBrowsers = new WeakMap<Page, { nextAddress: () => Promise<string>; context: BrowserContext }>()

/**
 * Each test launches the app in its project's shell, as `npm start` does, against the
 * run's local network: the real core, a real keychain under its own service name, the
 * built renderer. Its keychain items and data folder are removed afterwards.
 * Where no Electron binary exists, the Electron project's tests skip, saying why.
 */
export const test = base.extend<{ app: AppUnderTest; cast: Cast; liveUpdates: boolean; hostTimeoutMs: number | undefined; undoHoldMs: number | null; signInAs: StackAccountName; signInOnPages: boolean; signedIn: StackAccount }, { shell: Shell }>({
  shell: ['loopback', { option: true, scope: 'worker' }],
  /**
   * Who the test's people are. `fresh` (the default): the six demo people made anew for
   * this test on the run's PDS (same names and faces, handles `owner-<tag>.test`), in
   * no group yet, so a test sees only the groups it starts and no test sees another's.
   * `demo`: the network's seeded people, for tests about the seeded demo groups.
   */
  cast: ['fresh', { option: true }],
  /** The app's live connections to its group host; off to show what an app without them does. */
  liveUpdates: [true, { option: true }],
  /**
   * The core's time limit for one group-host request (CONVENE_HOST_TIMEOUT_MS; unset: its
   * 15 s), shortened for tests of a hung host so they wait seconds, not a quarter minute.
   */
  hostTimeoutMs: [undefined, { option: true }],
  /**
   * How long the core holds a one-key decision for Undo (CONVENE_UNDO_HOLD_MS). A test not
   * about Undo holds it 1 s: the decision still goes the held way (toast, hold, send), without
   * waiting out the 6 s a person is given to react, which many tests did after each decision.
   * `null`: the window's own 6 s (e2e/undo.spec.ts); 0 sends at once, for Undo after the send.
   */
  undoHoldMs: [1_000, { option: true }],
  /** Whom `signedIn` signs in as (`test.use({ signInAs: 'admin' })` for someone else). */
  signInAs: ['owner', { option: true }],
  /**
   * How `signedIn` and `openSignedIn` complete the PDS's sign-in: on its pages, as a person
   * does (for tests about signing in: e2e/accounts.spec.ts), or, where signing in is only
   * the way in, by the requests those pages make (test/support/pds-authorize.ts): the same
   * OAuth on the same PDS, about 3 s sooner in each test.
   */
  signInOnPages: [false, { option: true }],
  /** The app opened and signed in through the PDS, where most tests start: the account signed in. */
  signedIn: async ({ page, app, signInAs }, use) => {
    await use(await openSignedIn(page, app, signInAs))
  },
  app: async ({ shell, cast, context, timezoneId, locale, liveUpdates, hostTimeoutMs, undoHoldMs, signInOnPages }, use, testInfo) => {
    const binary = shell === 'electron' ? electronBinary() : null
    testInfo.skip(shell === 'electron' && !binary, ELECTRON_SKIP_REASON)
    const { stackFile } = workerNetwork()
    const network = JSON.parse(fs.readFileSync(stackFile, 'utf8')) as StackFile
    const stack = cast === 'demo' ? network : { ...network, accounts: await createDemoAccounts(new PdsClient(network.pds), newAccountTag()) }
    const keychainService = `convene-e2e-${randomUUID()}`
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-e2e-data-'))
    try {
      if (shell === 'electron') {
        const electronApp = await launchElectron(binary!, { stackFile, keychainService, dataDir, timezoneId, locale, liveUpdates, hostTimeoutMs, undoHoldMs })
        const window = await electronApp.firstWindow()
        outsideBrowsers.set(window, { nextAddress: () => nextExternalAddress(electronApp), context })
        const callInputs = (channel: Channel) =>
          electronApp.evaluate((_electron, ch) => (globalThis as unknown as { conveneCallLog: CallLog }).conveneCallLog.inputs(ch), channel)
        const callCounts = () => electronApp.evaluate(() => (globalThis as unknown as { conveneCallLog: CallLog }).conveneCallLog.counts())
        await use({ shell, stack, dataDir, signInOnPages, electronApp, callInputs, callCounts, open: (page) => page.reload().then(() => undefined) })
        await electronApp.close()
      } else {
        // The loopback core runs in this process: it reads the limit from this process's environment.
        if (hostTimeoutMs !== undefined) process.env.CONVENE_HOST_TIMEOUT_MS = String(hostTimeoutMs)
        if (undoHoldMs !== null) process.env.CONVENE_UNDO_HOLD_MS = String(undoHoldMs)
        const launched = await launchLoopbackApp({ stackFile, version: '0.0.0-e2e', keychainService, dataDir, liveUpdates })
        const launchUrl = launched.shell.launchUrl
        const calls = callLog(launched.core.handlers)
        const callInputs = async (channel: Channel) => calls.inputs(channel)
        const callCounts = async () => calls.counts()
        await use({ shell, stack, dataDir, signInOnPages, launchUrl, callInputs, callCounts, origin: launched.shell.origin, open: (page) => page.goto(launchUrl).then(() => undefined) })
        await launched.close()
      }
    } finally {
      if (hostTimeoutMs !== undefined && shell === 'loopback') delete process.env.CONVENE_HOST_TIMEOUT_MS
      if (undoHoldMs !== null && shell === 'loopback') delete process.env.CONVENE_UNDO_HOLD_MS
      const secrets = new KeychainSecretStore(keychainService)
      for (const key of await secrets.keys()) await secrets.delete(key)
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  },
  // In the Electron project the page under test is the app's own window.
  page: async ({ page, app }, use) => {
    await use(app.electronApp ? await app.electronApp.firstWindow() : page)
  },
})

export { expect }

async function launchElectron(binary: string, opts: { stackFile: string; keychainService: string; dataDir: string; timezoneId?: string; locale?: string; liveUpdates: boolean; hostTimeoutMs?: number; undoHoldMs: number | null }) {
  const electronApp = await electron.launch({
    executablePath: binary,
    // A spec's timezoneId and locale, which Playwright applies to browser contexts, reach
    // Electron as the process's TZ and --lang.
    args: [path.resolve(import.meta.dirname, '../..'), ...(opts.locale ? [`--lang=${opts.locale}`] : [])],
    env: {
      ...process.env,
      CONVENE_STACK_FILE: opts.stackFile,
      CONVENE_KEYCHAIN_SERVICE: opts.keychainService,
      CONVENE_DATA_DIR: opts.dataDir,
      ...(opts.timezoneId ? { TZ: opts.timezoneId } : {}),
      ...(opts.liveUpdates ? {} : { CONVENE_LIVE_UPDATES: 'off' }),
      ...(opts.hostTimeoutMs !== undefined ? { CONVENE_HOST_TIMEOUT_MS: String(opts.hostTimeoutMs) } : {}),
      ...(opts.undoHoldMs !== null ? { CONVENE_UNDO_HOLD_MS: String(opts.undoHoldMs) } : {}),
      CONVENE_CALL_LOG: 'on',
    },
  })
  // Stand in for the OS browser: keep the addresses the app asks it to open.
  await electronApp.evaluate(({ shell }) => {
    const opened: string[] = []
    Object.assign(globalThis, { conveneOpenedExternally: opened })
    shell.openExternal = async (url: string) => {
      opened.push(url)
    }
  })
  return electronApp
}

/** The next address the Electron app handed to the OS browser. */
async function nextExternalAddress(electronApp: ElectronApplication): Promise<string> {
  let url: string | undefined
  await expect
    .poll(async () => (url = await electronApp.evaluate(() => (globalThis as unknown as { conveneOpenedExternally: string[] }).conveneOpenedExternally.shift())), {
      message: 'the app should open the PDS sign-in page in the browser',
    })
    .toBeTruthy()
  return url!
}

/** The next address the window opens outside itself, opened in a tab of the test's Chromium (a new tab in the loopback shell; the stand-in OS browser for Electron). */
async function nextOutsidePage(page: Page, act: () => Promise<void>): Promise<Page> {
  const outside = outsideBrowsers.get(page)
  const popup = outside ? null : page.context().waitForEvent('page')
  await act()
  if (!outside) return popup!
  const tab = await outside.context.newPage()
  await tab.goto(await outside.nextAddress())
  return tab
}

/**
 * The authorization address the window sends the person to when `act` runs, without the
 * PDS's page loading anywhere (the provider ties an authorization to the first browser that
 * opens it): the loopback shell's tab is answered by the test and closed.
 */
async function nextAuthorizeAddress(page: Page, act: () => Promise<void>): Promise<string> {
  const outside = outsideBrowsers.get(page)
  if (outside) {
    await act()
    return outside.nextAddress()
  }
  const context = page.context()
  let seen!: (url: string) => void
  const address = new Promise<string>((resolve) => (seen = resolve))
  const isAuthorize = (url: URL) => url.pathname === '/oauth/authorize'
  const answer = (route: Route) => {
    seen(route.request().url())
    return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Signing in</title>' })
  }
  await context.route(isAuthorize, answer)
  try {
    const popup = context.waitForEvent('page')
    await act()
    const url = await address
    await (await popup).close()
    return url
  } finally {
    await context.unroute(isAuthorize, answer)
  }
}

/**
 * From now on, the pages of a list the window asks the core for. Returns a check, for
 * after the list shows, that at least one page crossed and every one was small: a window
 * that read the list whole, or a count that saw no calls at all, fails it.
 */
export async function watchListPages(app: AppUnderTest, channel: Channel) {
  const before = (await app.callInputs(channel)).length
  const asked = async () => (await app.callInputs(channel)).slice(before) as { offset: number; limit: number }[]
  return {
    asked,
    async expectOnlyRowsInView(opts: { mostPages?: number } = {}) {
      const pages = await asked()
      expect(pages.length, `the window should have asked the core for a page of ${channel}`).toBeGreaterThan(0)
      for (const p of pages) expect(p.limit, `a page of ${channel} asked for`).toBeLessThanOrEqual(100)
      if (opts.mostPages !== undefined) expect(pages.length).toBeLessThanOrEqual(opts.mostPages)
    },
  }
}

/**
 * Clicks Sign in for a handle and returns the PDS sign-in page it opened (a new tab in
 * the loopback shell; the stand-in OS browser for Electron).
 */
export async function startSignIn(page: Page, handle: string): Promise<Page> {
  await page.getByLabel('Your handle').fill(handle)
  return nextOutsidePage(page, () => page.getByRole('button', { name: 'Sign in', exact: true }).click())
}

/**
 * Enters a group's handle under "Act as a group" and returns the group host's sign-in page
 * it opened (a new tab in the loopback shell; the stand-in OS browser for Electron).
 */
export async function startActingAsGroup(page: Page, groupHandle: string): Promise<Page> {
  await page.getByLabel('The group’s handle').fill(groupHandle)
  return nextOutsidePage(page, () => page.getByRole('button', { name: 'Act as this group' }).click())
}

/** Opens the app and signs in as one of the local network's accounts; returns that account. */
export async function openSignedIn(page: Page, app: AppUnderTest, name: StackAccountName): Promise<StackAccount> {
  const account = app.stack.accounts.find((a) => a.name === name)!
  await app.open(page)
  await signInThroughPds(page, account.handle, account.password, { onPages: app.signInOnPages })
  return account
}

/**
 * Signs in through the PDS: on its own sign-in and consent pages, as a person would, or
 * (`onPages: false`) by the requests those pages make (test/support/pds-authorize.ts).
 */
export async function signInThroughPds(page: Page, handle: string, password: string, opts: { onPages?: boolean } = {}) {
  if (opts.onPages ?? true) {
    const pds = await startSignIn(page, handle)
    await pds.locator('input[name=password]').fill(password)
    await pds.getByRole('button', { name: 'Sign in' }).click()
    await pds.getByRole('button', { name: 'Authorize' }).click()
    await expect(pds.getByRole('heading', { name: 'You can close this tab' })).toBeVisible()
    await pds.close()
  } else {
    await page.getByLabel('Your handle').fill(handle)
    const authorizeUrl = await nextAuthorizeAddress(page, () => page.getByRole('button', { name: 'Sign in', exact: true }).click())
    await authorizeThroughPdsApi(authorizeUrl, handle, password)
  }
  // After sign-in the app looks for the person's groups on the hosts it knows and adds
  // and syncs each one it finds. Tests start from there, as a person would after that
  // status clears: a test that changed a group on the host while that search was still
  // adding it raced the app's own first read of the group.
  const account = page
    .getByRole('navigation', { name: 'Your groups' })
    .locator('section', { has: page.getByRole('heading', { name: `@${handle}`, exact: true }) })
  await expect(account).toBeVisible({ timeout: 20_000 })
  await expect(account.getByTestId('finding-groups')).toHaveCount(0, { timeout: 30_000 })
}

/**
 * Runs `trigger` and returns the file it downloads: the browser's download in the
 * loopback shell; in Electron, the file its save dialog would have written, saved to a
 * temporary folder instead (a native dialog cannot be driven from a test).
 */
export async function saveDownload(page: Page, app: AppUnderTest, trigger: () => Promise<void>): Promise<{ fileName: string; text: string }> {
  if (!app.electronApp) {
    const downloading = page.waitForEvent('download')
    await trigger()
    const download = await downloading
    return { fileName: download.suggestedFilename(), text: fs.readFileSync((await download.path())!, 'utf8') }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-e2e-download-'))
  await app.electronApp.evaluate(({ session }, folder) => {
    const saved: string[] = []
    Object.assign(globalThis, { conveneSaved: saved })
    session.defaultSession.once('will-download', (_event, item) => {
      item.setSavePath(`${folder}/${item.getFilename()}`)
      item.once('done', (_e, state) => state === 'completed' && saved.push(item.getFilename()))
    })
  }, dir)
  await trigger()
  let fileName: string | undefined
  await expect
    .poll(async () => (fileName = await app.electronApp!.evaluate(() => (globalThis as unknown as { conveneSaved: string[] }).conveneSaved[0])), { message: 'the download should complete' })
    .toBeTruthy()
  const text = fs.readFileSync(path.join(dir, fileName!), 'utf8')
  fs.rmSync(dir, { recursive: true, force: true })
  return { fileName: fileName!, text }
}
