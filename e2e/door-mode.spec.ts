import { test, expect } from './support/fixtures.js'
import { addEvent, openSection, startGroup, syncNow } from './support/start-group.js'
import { hangHost } from './support/stack-control.js'
import { axeViolations } from './support/axe.js'

/** The core's time limit here (the app's own is 15 s): the host is named within seconds. */
const LIMIT_MS = 2_000
test.use({ hostTimeoutMs: LIMIT_MS })

const today = () => new Intl.DateTimeFormat('en-CA').format(new Date())

test.describe('door mode', () => {
  test('checks people in with the host not answering: typed letters, Enter, shown at once as waiting, sent when it is back; the event shows who came', async ({ page, app, signedIn: owner }) => {
    test.setTimeout(150_000)
    await startGroup(page, { prefix: 'door', name: 'Door night', policy: 'open', section: 'Calendar' })
    await addEvent(page, { name: 'Meetup at the door', day: today(), time: '00:00' })
    const card = page.getByRole('article', { name: 'Meetup at the door' })
    await expect(card.getByText('Sending…')).toHaveCount(0, { timeout: 20_000 })
    await syncNow(page)

    const bringBack = await hangHost()
    try {
      await card.getByRole('link', { name: 'Door mode for Meetup at the door' }).click()
      await expect(page.getByRole('heading', { name: 'Door: Meetup at the door' })).toBeVisible()
      const field = page.getByRole('combobox', { name: 'Name or handle' })
      await expect(field).toBeFocused()
      await expect(page.getByTestId('door-count')).toHaveText('0 checked in')

      // A few letters of the handle list the person; Enter checks them in.
      await field.pressSequentially(owner.handle.slice(0, 4))
      await expect(page.getByRole('option').first()).toContainText(owner.handle)
      await expect(page.getByRole('option').first()).toHaveAttribute('aria-selected', 'true')
      expect(await axeViolations(page)).toEqual([])
      await field.press('Enter')
      // Answered where the eye is, and shown at once as waiting to be sent.
      await expect(page.getByTestId('door-said')).toHaveAttribute('role', 'status')
      await expect(page.getByTestId('door-said')).toContainText(`@${owner.handle}) checked in.`)
      await expect(field).toHaveValue('')
      await expect(field).toBeFocused()
      await expect(page.getByTestId('door-count')).toHaveText('1 checked in')
      const row = page.getByTestId('door-checked-in').locator('li')
      await expect(row).toHaveCount(1)
      await expect(row).toContainText('waiting to be sent')
      expect(await axeViolations(page)).toEqual([])

      // The same person again: said in plain words, nothing doubled.
      await field.pressSequentially(owner.handle.slice(0, 4))
      await field.press('Enter')
      await expect(page.getByTestId('door-said')).toContainText('Checked in at')
      await expect(page.getByTestId('door-count')).toHaveText('1 checked in')

      // Nobody by that name, and not a handle: said so.
      await field.pressSequentially('zzzz')
      await field.press('Enter')
      await expect(page.getByTestId('door-said')).toContainText('Nobody matches “zzzz”')
      await field.fill('')

      // A walk-in by handle, someone not in the group: only the host hangs, so their handle is
      // still looked up, and they are checked in at once, waiting to be sent with the rest.
      // (A handle that cannot be looked up at all is queued by the handle: the core integration test.)
      const walkIn = app.stack.accounts.find((a) => a.name === 'outsider')!
      await field.fill(walkIn.handle)
      await field.press('Enter')
      // Cleared at once, look-up or not: the next name typed never runs into this one.
      await expect(field).toHaveValue('')
      await expect(page.getByTestId('door-said')).toContainText(`@${walkIn.handle} checked in (walk-in).`)
      await expect(page.getByTestId('door-count')).toHaveText('2 checked in')
      await expect(page.getByTestId('door-checked-in').locator('li', { hasText: walkIn.handle })).toContainText('waiting to be sent · walk-in')
      // Two more walk-ins, typed one straight after the other: four check-ins waiting for the host.
      for (const name of ['admin', 'moderator'] as const) {
        await field.fill(app.stack.accounts.find((a) => a.name === name)!.handle)
        await field.press('Enter')
        await expect(field).toHaveValue('')
      }
      await expect(page.getByTestId('door-count')).toHaveText('4 checked in', { timeout: 10_000 })
    } finally {
      await bringBack()
    }

    // The host answers again: the check-in is sent (Retry now in the pending changes ends its back-off).
    await syncNow(page)
    await page.getByTestId('connection-state').click()
    await expect(async () => {
      const retry = page.getByRole('button', { name: /^Retry now: Check in/ })
      if (await retry.count()) await retry.click({ timeout: 2_000 })
      await expect(page.getByTestId('outbox-list')).toHaveCount(0, { timeout: 3_000 })
    }).toPass({ timeout: 60_000 })
    await page.goBack()
    // The host is back: all four stay, sent, through every read of the group that follows.
    const rows = page.getByTestId('door-checked-in').locator('li')
    await expect(rows).toHaveCount(4)
    await expect(rows.filter({ hasText: 'waiting to be sent' })).toHaveCount(0, { timeout: 20_000 })
    await syncNow(page)
    await expect(rows).toHaveCount(4)
    await expect(page.getByTestId('door-count')).toHaveText('4 checked in')
    await expect(rows.filter({ hasText: owner.handle })).toContainText('Checked in at')
    // A face (or initials, for someone whose profile has no picture) beside every name.
    await expect(rows.locator('.door-face')).toHaveCount(4)

    // A handle no one has: queued (it could not be looked up), then refused in plain words when sent.
    const door = page.getByRole('combobox', { name: 'Name or handle' })
    await door.fill('nobody-at-the-door.test')
    await door.press('Enter')
    const refused = page.getByTestId('door-refused')
    await expect(refused.getByRole('alert')).toHaveText('No one has the handle @nobody-at-the-door.test: the walk-in was not recorded.', { timeout: 30_000 })
    // Never counted: not while it was looked up, not once refused.
    await expect(rows).toHaveCount(4)
    await expect(page.getByTestId('door-count')).toHaveText('4 checked in')
    expect(await axeViolations(page)).toEqual([])
    await refused.getByRole('button', { name: 'Dismiss' }).click()
    await expect(refused).toHaveCount(0)
    await expect(door).toBeFocused()

    // Escape leaves door mode; the event shows who came.
    await page.getByRole('combobox', { name: 'Name or handle' }).press('Escape')
    const after = page.getByRole('article', { name: 'Meetup at the door' })
    await expect(after.getByTestId('came-count')).toHaveText('4 came')
    // And the member's row says they came (the one past event where attendance was taken).
    await openSection(page, 'Members')
    await expect(page.getByTestId('attendance-history')).toHaveText('· Came to the last event')
  })
})
