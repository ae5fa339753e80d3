import { addEvent } from './support/start-group.js'
import { test, expect } from './support/fixtures.js'
import { axeViolations } from './support/axe.js'

test.use({ locale: 'en-GB' })

// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

test.describe('an event’s image', () => {
  test('an organizer chooses an image for an event: it shows on the calendar card and in the month’s day, and can be removed', async ({ page, signedIn: _owner }) => {
    test.setTimeout(120_000)
    const handle = `img${Date.now().toString(36)}.groups.test`
    await page.getByLabel('Handle', { exact: true }).fill(handle)
    await page.getByLabel('Name', { exact: true }).fill('Harbour walkers')
    await page.getByLabel('Anyone, at once').check()
    await page.getByRole('button', { name: 'Start group' }).click()
    await expect(page.getByRole('heading', { name: 'Harbour walkers' })).toBeVisible({ timeout: 20_000 }) // made on the host and first read, as startGroup waits
    await page.getByRole('navigation', { name: 'Group sections' }).getByRole('link', { name: 'Calendar' }).click()

    // Today, late: in the agenda (under today) and in this month's grid.
    const day = new Intl.DateTimeFormat('en-CA').format(new Date())
    await addEvent(page, { name: 'Harbour walk', day, time: '23:30' })

    // Once the host has the event, an image can go beside it.
    const choose = page.getByRole('button', { name: 'Image for Harbour walk' })
    await expect(choose).toBeVisible({ timeout: 15_000 })
    await choose.click()
    const dialog = page.getByRole('dialog', { name: 'Image for “Harbour walk”' })
    const file = dialog.getByLabel('Picture', { exact: true })
    // Checked before anything is sent: a file that is not a picture is named at once.
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') })
    await expect(dialog.getByTestId('event-image-error')).toHaveText('Choose a PNG, JPEG, WebP or GIF picture.')
    await expect(dialog.getByRole('button', { name: 'Save image' })).toBeDisabled()
    await file.setInputFiles({ name: 'pier.png', mimeType: 'image/png', buffer: PNG })
    await expect(dialog.getByTestId('event-image-error')).toHaveCount(0)
    await dialog.getByLabel('Describe the picture for people who cannot see it').fill('The pier at dawn')
    expect(await axeViolations(page, { include: '[data-testid="event-image-dialog"]' })).toEqual([])
    await dialog.getByRole('button', { name: 'Save image' }).click()
    await expect(dialog).toBeHidden()

    // On the card, described; sent (no longer "Sending…"), so it is the group's record on the host.
    const card = page.getByRole('article', { name: 'Harbour walk' })
    await expect(card.getByRole('img', { name: 'The pier at dawn' })).toBeVisible()
    await expect(card.getByText('Sending…')).toBeHidden({ timeout: 15_000 })
    await expect(card.getByRole('img', { name: 'The pier at dawn' })).toHaveAttribute('src', `data:image/png;base64,${PNG.toString('base64')}`)

    // In the event as the month view's day shows it.
    await page.getByRole('button', { name: 'Month' }).click()
    await page.getByTestId(`day-${day}`).click()
    await expect(page.getByTestId('day-detail').getByRole('article', { name: 'Harbour walk' }).getByRole('img', { name: 'The pier at dawn' })).toBeVisible()

    // Removed: gone from the event.
    await page.getByTestId('day-detail').getByRole('button', { name: 'Image for Harbour walk' }).click()
    const again = page.getByRole('dialog', { name: 'Image for “Harbour walk”' })
    await again.getByRole('button', { name: 'Remove image' }).click()
    await expect(again).toBeHidden()
    await expect(page.getByTestId('day-detail').getByRole('article', { name: 'Harbour walk' }).getByRole('img')).toHaveCount(0)
  })
})
