import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { test as base, expect, type Page } from '@playwright/test'
import { launchLoopbackApp } from '../../src/main/loopback/launch.js'
import { KeychainSecretStore } from '../../src/main/core/secrets/keychain-secret-store.js'
import type { StackFile } from '../../src/shared/stack-file.js'
import type { AppCore } from '../../src/main/core/app-core.js'

export interface AppUnderTest {
  launchUrl: string
  origin: string
  stack: StackFile
  /** The app's core, for seeding its cache where real data would take too long to make. */
  core: AppCore
}

/**
 * Each test launches the app as `npm start` does in the loopback shell (the real core,
 * a real keychain under its own service name, the built renderer) against the run's
 * local network, and removes its keychain items afterwards.
 */
export const test = base.extend<{ app: AppUnderTest }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their dependencies, and this one has none.
  app: async ({}, use) => {
    const stackFile = process.env.CONVENE_E2E_STACK!
    const keychainService = `convene-e2e-${randomUUID()}`
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-e2e-data-'))
    const launched = await launchLoopbackApp({ stackFile, version: '0.0.0-e2e', keychainService, dataDir })
    const stack = JSON.parse(fs.readFileSync(stackFile, 'utf8')) as StackFile
    await use({ launchUrl: launched.shell.launchUrl, origin: launched.shell.origin, stack, core: launched.core })
    await launched.close()
    const secrets = new KeychainSecretStore(keychainService)
    for (const key of await secrets.keys()) await secrets.delete(key)
    fs.rmSync(dataDir, { recursive: true, force: true })
  },
})

export { expect }

/** Signs in through the PDS's own sign-in and consent pages, as a person would. */
export async function signInThroughPds(page: Page, handle: string, password: string) {
  await page.getByLabel('Your handle').fill(handle)
  const popup = page.context().waitForEvent('page')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  const pds = await popup
  await pds.locator('input[name=password]').fill(password)
  await pds.getByRole('button', { name: 'Sign in' }).click()
  await pds.getByRole('button', { name: 'Authorize' }).click()
  await expect(pds.getByRole('heading', { name: 'You can close this tab' })).toBeVisible()
  await pds.close()
}
