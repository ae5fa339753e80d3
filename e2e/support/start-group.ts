import { expect, type Page } from '@playwright/test'

/**
 * Starts a group of the test's own from the app's "Start a new group" form (the page
 * must show "Your groups"), opens one of its sections, and returns its handle and DID.
 */
export async function startGroup(page: Page, opts: { prefix: string; name: string; policy: 'open' | 'approval' | 'invite'; section: string }) {
  const handle = `${opts.prefix}${Date.now().toString(36)}.groups.test`
  const policyLabel = { open: 'Anyone, at once', approval: 'Anyone who asks, once approved', invite: 'Only people you invite' }[opts.policy]
  await page.getByLabel('Handle', { exact: true }).fill(handle)
  await page.getByLabel('Name', { exact: true }).fill(opts.name)
  await page.getByLabel(policyLabel).check()
  await page.getByRole('button', { name: 'Start group' }).click()
  // The group is made on the host (a new DID on the PLC) and read for the first time
  // before its page opens: a round trip of the network's, not a reaction of the window's.
  await expect(page.getByRole('heading', { name: opts.name })).toBeVisible({ timeout: 20_000 })
  await openSection(page, opts.section)
  const groupDid = decodeURIComponent(/\/g\/[^/]+\/([^/?]+)/.exec(page.url())![1]!)
  return { handle, groupDid }
}

/** Opens one of a group's sections from its tabs. */
export async function openSection(page: Page, section: string) {
  await page.getByRole('navigation', { name: 'Group sections' }).getByRole('link', { name: section }).click()
}

/** Asks the app to sync now, so what other people just did shows without waiting. */
export async function syncNow(page: Page) {
  await page.getByRole('button', { name: 'Sync now' }).click()
  await expect(page.getByRole('button', { name: 'Sync now' })).toBeEnabled({ timeout: 20_000 })
}

/** Adds an event from the Calendar tab's "New event" form (`day`: YYYY-MM-DD, `time`: HH:MM), and waits for the form to close. */
export async function addEvent(page: Page, opts: { name: string; day: string; time: string; capacity?: number; picture?: { png: Buffer; alt: string } }) {
  await page.getByRole('button', { name: 'New event' }).click()
  const form = page.getByRole('dialog', { name: 'New event' })
  await form.getByLabel('Name').fill(opts.name)
  await form.getByLabel('Start date').fill(opts.day)
  await form.getByLabel('Start time').fill(opts.time)
  if (opts.capacity !== undefined) await form.getByRole('spinbutton', { name: /^Capacity/ }).fill(String(opts.capacity))
  if (opts.picture) {
    await form.getByLabel(/^Picture/).setInputFiles({ name: 'picture.png', mimeType: 'image/png', buffer: opts.picture.png })
    await form.getByLabel('Describe the picture for people who cannot see it').fill(opts.picture.alt)
  }
  await form.getByRole('button', { name: 'Add event' }).click()
  await expect(form).toBeHidden()
}
