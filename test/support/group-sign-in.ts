import type { Page } from 'playwright-core'
import { sharedBrowser } from './browser-sign-in.js'

export interface GroupSignInResult {
  /** The consent page's main text, when it was reached. */
  consent?: string
  /** The page where the flow stopped (e.g. "no role"), when it did not reach the app. */
  stoppedAt?: string
  /** The app's redirect URL, when the flow got back to it. */
  redirect?: URL
}

/**
 * A group sign-in in Chromium, as a person does it: the group host's page asks for
 * their handle, their own PDS's pages ask for their password and approval, then the
 * group host's consent page; `choice` there is Allow or Deny.
 */
export async function completeGroupSignIn(
  authorizeUrl: string,
  person: { handle: string; password: string },
  choice: 'Allow' | 'Deny' = 'Allow',
  inspect?: (page: Page) => Promise<void>,
): Promise<GroupSignInResult> {
  const context = await (await sharedBrowser()).newContext()
  try {
    const page = await context.newPage()
    await page.goto(authorizeUrl)
    await inspect?.(page)
    await page.getByLabel('Your handle').fill(person.handle)
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.locator('input[name=password]').fill(person.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: 'Authorize' }).click()
    const outcome = await Promise.race([
      page.getByRole('button', { name: 'Allow' }).waitFor().then(() => 'consent' as const),
      page.getByRole('alert').waitFor().then(() => 'stopped' as const),
    ])
    if (outcome === 'stopped') return { stoppedAt: await page.locator('main').innerText() }
    const consent = await page.locator('main').innerText()
    await page.getByRole('button', { name: choice }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/callback/)
    return { consent, redirect: new URL(page.url()) }
  } finally {
    await context.close()
  }
}
