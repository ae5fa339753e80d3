import { chromium, type Browser } from 'playwright-core'

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']

let browser: Browser | undefined

/** Debian's Chromium, shared by a test file's sign-ins. */
export async function sharedBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath: process.env.CONVENE_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
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

/**
 * Completes "act as a group" in the browser, as the person would: the group host's page
 * asks for their own handle, sends them through their own PDS's sign-in and consent
 * (the host is an atproto client asking only `atproto`), then shows its own consent,
 * naming the group, the person, their roles and the app. Returns that consent's text,
 * for tests that check what it names; `choice` is the host's consent button.
 */
export async function completeOnGroupHostPages(
  authorizeUrl: string,
  person: { handle: string; password: string },
  choice: RegExp = /^(allow|authorize|approve)/i,
): Promise<string> {
  const context = await (await sharedBrowser()).newContext()
  try {
    const page = await context.newPage()
    await page.goto(authorizeUrl)
    await page.getByLabel(/handle/i).fill(person.handle)
    await page.getByRole('button', { name: /continue|sign in|next/i }).click()
    // The person's own PDS: password, then its consent for the host (asking `atproto` only).
    await page.locator('input[name=password]').fill(person.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: 'Authorize' }).click()
    // Back on the host: its consent for the app, as the group.
    const consent = page.getByRole('button', { name: choice })
    await consent.waitFor()
    const text = await page.locator('body').innerText()
    await consent.click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/callback/)
    return text
  } finally {
    await context.close()
  }
}
