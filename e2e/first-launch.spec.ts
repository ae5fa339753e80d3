import { test, expect } from './support/fixtures.js'
import { CHANNELS } from '../src/shared/ipc/contract.js'

test.describe('first launch', () => {
  test('shows the sign-in screen and an empty account list, through the real contract and core', async ({ page, app }, testInfo) => {
    if (app.shell === 'loopback') {
      // The window asks about updates; this shell has none to offer, and says why.
      const updates = page.waitForResponse((r) => r.url().endsWith('/ipc/app.updateStatus'))
      const response = await page.goto(app.launchUrl!)
      expect(await (await updates).json()).toMatchObject({ ok: true, value: { state: 'unavailable', canRestart: false, message: 'Updates come with the installed app.' } })
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
    } else {
      await app.open(page)
    }

    await expect(page.getByRole('heading', { name: 'Sign in to Convene' })).toBeVisible()
    await expect(page.getByLabel('Your handle')).toBeVisible()
    // The account list comes from the keychain (a real Secret Service) via the core.
    await expect(page.getByTestId('accounts-empty')).toHaveText('No accounts yet. Sign in above to add one.')
    // The core knows it runs against the local network (from stack.json).
    await expect(page.getByTestId('network-badge')).toHaveText('Local network')
    await expect(page.getByTestId('keychain-error')).toHaveCount(0)
    // Not the installed app: nothing offers to restart for an update.
    await expect(page.getByTestId('update-notice')).toHaveCount(0)
    // The launch secret is taken out of the address bar at once.
    expect(page.url()).not.toContain('launch=')
    // Electron's preload gives the renderer exactly the contract's channels, nothing more
    // (the loopback shell's renderer builds the same API over fetch and gets nothing).
    const exposed = await page.evaluate(() => Object.keys((globalThis as unknown as { convene?: object }).convene ?? {}).sort())
    expect(exposed).toEqual(app.shell === 'electron' ? [...CHANNELS].sort() : [])
    expect(await page.evaluate(() => typeof (globalThis as unknown as { require?: unknown }).require)).toBe('undefined')

    await page.screenshot({ path: testInfo.outputPath('sign-in.png'), fullPage: true })
  })

  test('a page without the launch secret cannot call the core', async ({ page, app }) => {
    test.skip(app.shell !== 'loopback', 'the launch secret guards the loopback shell; Electron has no address to open')
    await page.goto(app.origin!)
    await expect(page.getByRole('alert').first()).toContainText('Open Convene from the address its launch printed')
  })
})
