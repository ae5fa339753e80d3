import { test, expect } from './support/fixtures.js'

test.describe('first launch', () => {
  test('shows the sign-in screen and an empty account list, through the real contract and core', async ({ page, app }, testInfo) => {
    const response = await page.goto(app.launchUrl)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")

    await expect(page.getByRole('heading', { name: 'Sign in to Convene' })).toBeVisible()
    await expect(page.getByLabel('Your handle')).toBeVisible()
    // The account list comes from the keychain (a real Secret Service) via the core.
    await expect(page.getByTestId('accounts-empty')).toHaveText('No accounts yet. Sign in above to add one.')
    // The core knows it runs against the local network (from stack.json).
    await expect(page.getByTestId('network-badge')).toHaveText('Local network')
    await expect(page.getByTestId('keychain-error')).toHaveCount(0)
    // The launch secret is taken out of the address bar at once.
    expect(page.url()).not.toContain('launch=')

    await page.screenshot({ path: testInfo.outputPath('sign-in.png'), fullPage: true })
  })

  test('a page without the launch secret cannot call the core', async ({ page, app }) => {
    await page.goto(app.origin)
    await expect(page.getByRole('alert').first()).toContainText('Open Convene from the address its launch printed')
  })
})
