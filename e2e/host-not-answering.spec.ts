import { test, expect } from './support/fixtures.js'
import { addEvent, startGroup, syncNow } from './support/start-group.js'
import { hangHost } from './support/stack-control.js'

/** The core's time limit here (the app's own is 15 s): the host is named within seconds. */
const LIMIT_MS = 2_000
test.use({ hostTimeoutMs: LIMIT_MS })

/** A day some days from now, as `YYYY-MM-DD` in the browser's zone. */
const dayAhead = (days: number) => new Intl.DateTimeFormat('en-CA').format(new Date(Date.now() + days * 86_400_000))

test.describe('a group host that does not answer', () => {
  test('is named within the time limit with the changes it keeps, and a change not yet sent can be cancelled, taking back what it showed', async ({ page, signedIn: _owner }, testInfo) => {
    test.setTimeout(120_000)
    await startGroup(page, { prefix: 'hung', name: 'Quiet harbour', policy: 'open', section: 'Calendar' })
    await expect(page.getByTestId('agenda-empty')).toBeVisible()

    // The host takes every connection and never answers.
    const bringBack = await hangHost()
    try {
      await addEvent(page, { name: 'Harbour walk', day: dayAhead(3), time: '10:00' })
      // Shown at once from the cache, marked as not yet sent.
      const card = page.getByRole('article', { name: 'Harbour walk' })
      await expect(card.getByText('Sending…')).toBeVisible()

      // Within the time limit (and a margin for the window), the top bar names the host.
      await expect(page.getByTestId('connection-state')).toHaveText('Host not answering · 1 waiting', { timeout: LIMIT_MS + 8_000 })
      await page.getByTestId('connection-state').click()
      await expect(page.getByRole('heading', { name: 'Changes not yet confirmed' })).toBeVisible()
      // Said once for the group, announced, and beside the change itself.
      const hosts = page.getByTestId('outbox-hosts')
      await expect(hosts).toHaveAttribute('role', 'status')
      await expect(hosts).toHaveText('Quiet harbour’s host is not answering; 1 change is kept and will be sent when it answers.')
      const row = page.getByTestId('outbox-list').locator('li')
      await expect(row).toHaveCount(1)
      await expect(row).toContainText('Add “Harbour walk” to the calendar · Quiet harbour')
      await expect(row).toContainText('The group host is not answering. Your change is kept and will be sent when it answers.')
      await expect(page.getByTestId('outbox-help')).toContainText('Cancel takes back a change that has not been sent yet')
      await page.screenshot({ path: testInfo.outputPath('host-not-answering.png'), fullPage: true })

      // It is tried again every few seconds; during a try it cannot be cancelled (the button
      // goes, and a click that lands then is refused in plain words), so this may take two.
      await expect(async () => {
        await row.getByRole('button', { name: 'Cancel: Add “Harbour walk” to the calendar' }).click({ timeout: 5_000 })
        await expect(page.getByTestId('toasts')).toContainText('Cancelled: Add “Harbour walk” to the calendar. It will not be sent.', { timeout: 3_000 })
      }).toPass({ timeout: 30_000 })
      await expect(page.getByTestId('outbox-list')).toHaveCount(0)
      await expect(hosts).toHaveText('')
      await expect(page.getByRole('heading', { name: 'Changes not yet confirmed' })).toBeFocused()

      // The calendar no longer shows it.
      await page.goBack()
      await expect(page.getByTestId('agenda-empty')).toBeVisible()
      await expect(page.getByRole('heading', { name: 'Harbour walk' })).toHaveCount(0)
    } finally {
      await bringBack()
    }

    // Back, the host never gets it: after a sync the calendar is still empty and nothing waits.
    await syncNow(page)
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date', { timeout: 20_000 })
    await expect(page.getByTestId('agenda-empty')).toBeVisible()
  })
})
