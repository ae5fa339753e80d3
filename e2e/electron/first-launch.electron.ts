import path from 'node:path'
import { _electron as electron, test, expect } from '@playwright/test'
import { electronBinary } from '../../src/dev/electron-binary.js'
import { ELECTRON_SKIP_REASON } from '../support/electron-skip.js'

/**
 * The same first-launch scenario in the real Electron shell (preload + ipcMain), where
 * an Electron binary exists. Machines that cannot download it skip, saying why.
 */
const binary = electronBinary()

test.describe('Electron shell', () => {
  test.skip(!binary, ELECTRON_SKIP_REASON)

  // eslint-disable-next-line no-empty-pattern -- Playwright passes fixtures first; this test needs none.
  test('shows the sign-in screen and an empty account list through the preload bridge', async ({}, testInfo) => {
    const app = await electron.launch({
      executablePath: binary!,
      args: [path.resolve(import.meta.dirname, '../..')],
      env: { ...process.env, CONVENE_STACK_FILE: process.env.CONVENE_E2E_STACK!, CONVENE_KEYCHAIN_SERVICE: `convene-electron-${Date.now()}` },
    })
    const page = await app.firstWindow()
    await expect(page.getByRole('heading', { name: 'Sign in to Convene' })).toBeVisible()
    await expect(page.getByTestId('accounts-empty')).toBeVisible()
    // The renderer has the contract API and nothing else from the main process.
    expect(await page.evaluate(() => Object.keys((globalThis as unknown as { convene: object }).convene).sort())).toContain('accounts.list')
    expect(await page.evaluate(() => typeof (globalThis as unknown as { require?: unknown }).require)).toBe('undefined')
    await page.screenshot({ path: testInfo.outputPath('electron-first-launch.png') })
    await app.close()
  })
})
