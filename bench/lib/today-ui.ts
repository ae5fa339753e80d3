import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { createCore } from '../../src/main/core/app-core.js'
import { MemorySecretStore } from '../../src/main/core/secrets/memory-secret-store.js'
import { dispatch } from '../../src/main/core/ipc/dispatch.js'
import { startLoopbackShell } from '../../src/main/loopback/server.js'
import { DEFAULT_RENDERER_DIR } from '../../src/main/loopback/launch.js'
import type { StackFile } from '../../src/shared/stack-file.js'
import { completeOnPdsPages } from '../../test/support/browser-sign-in.js'
import { seedCachedGroup, seedCachedJoinRequests, seedCachedSubjects } from '../../test/support/seed-cache.js'

export const TODAY_GROUPS = 20
export const TODAY_ITEMS = 10_000

/**
 * Today over 20 groups holding 10,000 waiting items between them (issue 25): the stack's
 * three groups, added as an organizer adds them, and seventeen more as a sync would have
 * left them in the cache; in each, join requests and open reports. Its own core, data
 * folder and window, so the other figures' 10,000-row lists are not in it.
 *
 * Cold: a fresh window opened straight at Today after one item changed (the core's kept
 * set is stale and is gathered again from every cache). Every request this process
 * sends to the group host meanwhile is counted (the core runs in it): the first screen
 * must need none.
 */
export async function measureToday(s: StackFile, browser: Browser, runs: number, firstScreenScript: (hash: string, list: string) => string) {
  const hostOrigin = new URL(s.host.url).origin
  const toHost: string[] = []
  const realFetch = globalThis.fetch
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.origin === hostOrigin) toHost.push(url.pathname)
    return realFetch(input, init)
  }) as typeof fetch
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-bench-today-'))
  const core = await createCore({
    version: 'bench',
    shell: 'loopback',
    network: { pdsUrl: s.pds, hostUrl: s.host.url, plcUrl: s.plc, hostAud: s.host.aud },
    secrets: new MemorySecretStore(),
    dataDir,
    syncIntervalMs: 0,
    liveUpdates: false,
  })
  const shell = await startLoopbackShell({ handlers: core.handlers, rendererDir: DEFAULT_RENDERER_DIR })
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  try {
    const ipc = async (channel: string, input: unknown) => {
      const env = await dispatch(core.handlers, channel, input)
      if (!env.ok) throw new Error(`${channel}: ${env.error.message}`)
      return env.value as Record<string, unknown>
    }
    const owner = s.accounts.find((a) => a.name === 'owner')!
    const start = (await ipc('accounts.signIn', { handle: owner.handle })) as { attemptId: string; authorizeUrl: string }
    await completeOnPdsPages(start.authorizeUrl, owner.password)
    const { did: accountDid } = (await ipc('accounts.awaitSignIn', { attemptId: start.attemptId })) as { did: string }
    const groupDids: string[] = []
    for (const group of s.groups) {
      await ipc('groups.add', { accountDid, ref: group.did })
      groupDids.push(group.did)
    }
    for (let i = groupDids.length; i < TODAY_GROUPS; i++) {
      const did = `did:plc:${`benchtoday${String(i).padStart(3, '0')}`.padEnd(24, 'x')}`
      await seedCachedGroup(dataDir, accountDid, did, { displayName: `Bench group ${i}`, hostUrl: s.host.url })
      groupDids.push(did)
    }
    const perGroup = TODAY_ITEMS / TODAY_GROUPS
    for (const [i, did] of groupDids.entries()) {
      await seedCachedJoinRequests(dataDir, accountDid, did, perGroup * 0.6, { prefix: `t${i}r`, message: (j) => (j % 4 ? null : `Table ${j}`) })
      await seedCachedSubjects(dataDir, accountDid, did, perGroup * 0.4, { prefix: `t${i}s`, status: (j) => (j % 5 ? 'open' : 'escalated') })
    }
    const checked = (await ipc('today.items', { limit: 1 })) as { waiting: number; groups: unknown[] }
    if (checked.waiting < TODAY_ITEMS || checked.groups.length !== TODAY_GROUPS) throw new Error(`Today holds ${checked.waiting} items in ${checked.groups.length} groups, not ${TODAY_ITEMS} in ${TODAY_GROUPS}`)

    const openWindow = async () => {
      await page.goto('about:blank')
      await page.goto(shell.launchUrl)
      await page.waitForSelector('nav[aria-label="Your groups"]')
      // The window looks for the account's groups on the host at start (groups.findMine): not part of Today's first screen.
      await page.waitForSelector('[data-testid="finding-groups"]', { state: 'detached' })
      await page.waitForTimeout(300)
    }
    // The browser's first window compiles the app's code: not counted (as in the other figures).
    await openWindow()
    await page.evaluate<[number, number]>(firstScreenScript('#/today', 'today'))
    // The counter sees the core's requests: adding the groups and the window's start made some.
    const setupRequests = toHost.length
    const cold: number[] = []
    let requests = 0
    for (let i = 0; i < runs; i++) {
      await seedCachedJoinRequests(dataDir, accountDid, groupDids[i % groupDids.length]!, 1, { prefix: `late${i}` })
      await openWindow()
      const before = toHost.length
      cold.push((await page.evaluate<[number, number]>(firstScreenScript('#/today', 'today')))[0])
      await page.waitForTimeout(200)
      requests += toHost.length - before
    }
    const rows = await page.locator('[data-testid="today-list"] li').count()
    return { cold, hostRequests: requests, setupRequests, rows, waiting: checked.waiting }
  } finally {
    await page.close()
    await shell.close()
    await core.close()
    globalThis.fetch = realFetch
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
