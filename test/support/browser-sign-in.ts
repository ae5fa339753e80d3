import { chromium, type Browser } from 'playwright-core'
import { TEST_BROWSER_ARGS, testBrowserPath } from '../../src/dev/test-browser.js'

let browser: Browser | undefined

/** The tests' Chromium (src/dev/test-browser.ts), shared by a test file's sign-ins. */
export async function sharedBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath: testBrowserPath(), args: TEST_BROWSER_ARGS })
  return browser
}

export async function closeSharedBrowser() {
  await browser?.close()
  browser = undefined
}

/**
 * Completes a sign-in on the PDS's own pages, as the person would in their browser:
 * password, then consent ("Authorize") or refusal ("Deny access").
 */
export async function completeOnPdsPages(authorizeUrl: string, password: string, choice: 'Authorize' | 'Deny access' = 'Authorize') {
  const context = await (await sharedBrowser()).newContext()
  try {
    const page = await context.newPage()
    await page.goto(authorizeUrl)
    await page.locator('input[name=password]').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: choice }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/callback/)
  } finally {
    await context.close()
  }
}

