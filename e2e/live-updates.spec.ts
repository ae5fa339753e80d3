import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { test, expect, signInThroughPds } from './support/fixtures.js'
import { openSection } from './support/start-group.js'
import { takeHostDown } from './support/stack-control.js'
import { workerNetwork } from './support/worker-network.js'
import { asPeer } from './support/peer.js'
import { LIVE_WITHIN_MS } from './support/live.js'
import { launchLoopbackApp } from '../src/main/loopback/launch.js'
import { KeychainSecretStore } from '../src/main/core/secrets/keychain-secret-store.js'
import type { StackAccountName, StackFile } from '../src/shared/stack-file.js'
import type { BrowserContext } from '@playwright/test'

// About the network's seeded demo groups, so with the seeded people (fixtures.ts, `cast`).
test.use({ cast: 'demo' })

/** Someone new: an account of their own on the PDS. Asks to join `group` when named. */
async function newPerson(stack: StackFile, asksToJoin?: string): Promise<string> {
  const post = async (base: string, method: string, body: unknown, token?: string) => {
    const res = await fetch(new URL(`/xrpc/${method}`, base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    })
    const json = (await res.json()) as Record<string, unknown>
    if (!res.ok) throw new Error(`${method}: ${res.status} ${JSON.stringify(json)}`)
    return json
  }
  const handle = `live${Date.now().toString(36)}.test`
  const account = await post(stack.pds, 'com.atproto.server.createAccount', { handle, password: 'convene-live', email: `${handle}@convene.invalid` })
  if (asksToJoin) {
    const url = new URL('/xrpc/com.atproto.server.getServiceAuth', stack.pds)
    url.searchParams.set('aud', stack.host.aud)
    url.searchParams.set('lxm', 'example.groups.requestJoin')
    const { token } = (await (await fetch(url, { headers: { authorization: `Bearer ${String(account.accessJwt)}` } })).json()) as { token: string }
    await post(stack.host.url, 'example.groups.requestJoin', { group: asksToJoin, message: 'May I join?' }, token)
  }
  return String(account.did)
}

/**
 * A second organizer's app, as on another machine: its own data folder and keychain, in a
 * window (tab) beside the first, signed in as `name`. `asked` collects the IPC channels
 * its window calls.
 */
async function secondApp(context: BrowserContext, stack: StackFile, name: StackAccountName) {
  const keychainService = `convene-e2e-${randomUUID()}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-e2e-data-'))
  const launched = await launchLoopbackApp({ stackFile: workerNetwork().stackFile, version: '0.0.0-e2e', keychainService, dataDir })
  const close = async () => {
    await launched.close()
    const secrets = new KeychainSecretStore(keychainService)
    for (const key of await secrets.keys()) await secrets.delete(key)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const page = await context.newPage()
    const asked: string[] = []
    page.on('request', (req) => {
      const m = /\/ipc\/([^/?]+)$/.exec(req.url())
      if (m) asked.push(m[1]!)
    })
    await page.goto(launched.shell.launchUrl)
    const account = stack.accounts.find((a) => a.name === name)!
    await signInThroughPds(page, account.handle, account.password)
    return { page, asked, close }
  } catch (err) {
    await close()
    throw err
  }
}

test.describe('live updates', () => {
  test('two organizers: one admits, and the request leaves the other’s list without any click', async ({ page, app, context, signedIn: _owner }, testInfo) => {
    const group = app.stack.groups.find((g) => g.name === 'approval')!
    // The second organizer, the admin, on another machine.
    const second = await secondApp(context, app.stack, 'admin')
    const other = second.page
    try {
      for (const window of [page, other]) {
        await window.getByTestId(`group-link-${group.handle}`).click()
        await openSection(window, 'Join requests')
        await expect(window.getByTestId('live-state')).toHaveText('Live', { timeout: LIVE_WITHIN_MS })
      }

      // Someone asks to join: both lists show them, with nobody pressing anything.
      const person = await newPerson(app.stack, group.did)
      await expect(page.getByTestId(`request-${person}`)).toBeVisible({ timeout: 5_000 })
      await expect(other.getByTestId(`request-${person}`)).toBeVisible({ timeout: 5_000 })
      await other.screenshot({ path: testInfo.outputPath('live-both-see-request.png'), fullPage: true })

      // The owner admits; the admin's list drops the request without a click, a reload or
      // "Sync now": nothing left to admit a second time.
      await page.getByRole('button', { name: `Admit ${person}` }).click()
      // (One person's admit is held for Undo before it is sent: e2e/undo.spec.ts.)
      await expect(other.getByTestId(`request-${person}`)).toHaveCount(0, { timeout: 12_000 })
      await expect(page.getByTestId(`request-${person}`)).toHaveCount(0)
      await other.screenshot({ path: testInfo.outputPath('live-admitted-elsewhere.png'), fullPage: true })
      expect(second.asked).not.toContain('sync.now')
      expect(second.asked).not.toContain('groups.refresh')
      await expect(other.getByTestId('connection-state')).toHaveText('Up to date')
      await other.close()
    } finally {
      await second.close()
    }
  })

  test('a moderator says “I’m on it”, and the other moderator’s queue shows who has it without a click', async ({ page, app, context, signedIn: _owner }, testInfo) => {
    const group = app.stack.groups.find((g) => g.name === 'open')!
    const second = await secondApp(context, app.stack, 'moderator')
    const other = second.page
    try {
      for (const window of [page, other]) {
        await window.getByTestId(`group-link-${group.handle}`).click()
        await openSection(window, 'Moderation')
        await expect(window.getByTestId('live-state')).toHaveText('Live', { timeout: LIVE_WITHIN_MS })
      }
      // A member reports someone; both queues show it.
      const reportedDid = await newPerson(app.stack)
      const member = await asPeer(app.stack, 'member')
      expect((await member.call('example.groups.createReport', { group: group.did, subject: { $type: 'example.groups.defs#subjectAccount', did: reportedDid }, reasonType: 'com.atproto.moderation.defs#reasonSpam' })).status).toBe(200)
      const mine = page.getByTestId(`subject-${reportedDid}`)
      const theirs = other.getByTestId(`subject-${reportedDid}`)
      await expect(mine).toBeVisible({ timeout: 5_000 })
      await expect(theirs).toBeVisible({ timeout: 5_000 })

      await theirs.getByRole('button', { name: /I’m on it$/ }).click()
      await expect(theirs.getByTestId('subject-assigned')).toHaveText('You have it')
      // The owner's queue says who has it, and offers no "I'm on it" for it.
      await expect(mine.getByTestId('subject-assigned')).toHaveText(/has it$/, { timeout: 5_000 })
      await expect(mine.getByTestId('subject-assigned')).not.toHaveText('You have it')
      await expect(mine.getByRole('button', { name: /I’m on it$/ })).toHaveCount(0)
      await page.screenshot({ path: testInfo.outputPath('live-someone-has-it.png'), fullPage: true })

      // Released by hand: gone from the owner's queue too.
      await theirs.getByRole('button', { name: /^Release the report/ }).click()
      await expect(mine.getByTestId('subject-assigned')).toHaveCount(0, { timeout: 5_000 })
      expect(second.asked).not.toContain('sync.now')
      await other.close()
    } finally {
      await second.close()
    }
  })

  test('a lost live connection is said plainly, and the window goes live again by itself', async ({ page, signedIn: _owner }, testInfo) => {
    test.setTimeout(150_000)
    await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: LIVE_WITHIN_MS })

    const bringBack = await takeHostDown()
    try {
      const banner = page.getByTestId('live-down')
      await expect(banner).toBeVisible({ timeout: 15_000 })
      await expect(banner).toContainText('Live updates from')
      await expect(banner).toContainText('Trying again at')
      await expect(banner).toContainText('until then Convene checks for changes every 30 seconds')
      await expect(page.getByTestId('live-state')).toHaveText('Reconnecting…')
      await page.screenshot({ path: testInfo.outputPath('live-down.png'), fullPage: true })
    } finally {
      await bringBack()
    }
    // Back on its own (the waits between tries are at most a minute).
    await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: 75_000 })
    await expect(page.getByTestId('live-down')).toHaveCount(0)
  })
})
