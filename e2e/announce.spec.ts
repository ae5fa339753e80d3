import { addEvent } from './support/start-group.js'
import { test, expect } from './support/fixtures.js'
import { axeViolations } from './support/axe.js'

test.use({ locale: 'en-GB' })

test.describe('posting as the group', () => {
  test('an organizer announces an event: the post is in the group’s public repository and listed under the calendar', async ({ page, app, signedIn: _owner }) => {
    test.setTimeout(120_000)
    const handle = `ann${Date.now().toString(36)}.groups.test`
    await page.getByLabel('Handle', { exact: true }).fill(handle)
    await page.getByLabel('Name', { exact: true }).fill('Harbour walkers')
    await page.getByLabel('Anyone, at once').check()
    await page.getByRole('button', { name: 'Start group' }).click()
    await expect(page.getByRole('heading', { name: 'Harbour walkers' })).toBeVisible({ timeout: 20_000 }) // made on the host and first read, as startGroup waits
    await page.getByRole('navigation', { name: 'Group sections' }).getByRole('link', { name: 'Calendar' }).click()
    const groupDid = decodeURIComponent(/\/g\/[^/]+\/([^/?]+)/.exec(page.url())![1]!)
    await expect(page.getByTestId('public-posts')).toContainText('The group has not posted yet')

    const day = new Intl.DateTimeFormat('en-CA').format(new Date(Date.now() + 3 * 86_400_000))
    await addEvent(page, { name: 'Harbour walk', day, time: '10:00' })

    // Once the host has the event, it can be announced.
    const announce = page.getByRole('button', { name: 'Announce Harbour walk' })
    await expect(announce).toBeVisible({ timeout: 15_000 })
    await announce.click()
    const dialog = page.getByRole('dialog', { name: 'Announce “Harbour walk”' })
    const text = dialog.getByLabel('Post')
    await expect(text).toBeFocused()
    await expect(text).toHaveValue(/^Harbour walk\n/)
    expect(await axeViolations(page, { include: '[data-testid="announce-dialog"]' })).toEqual([])
    await text.fill('Harbour walk on Sunday at ten. All welcome!')
    // A picture, described for those who cannot see it (a 1x1 PNG).
    await dialog.getByLabel('Picture (optional)').setInputFiles({ name: 'pier.png', mimeType: 'image/png', buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64') })
    await dialog.getByLabel('Describe the picture for people who cannot see it').fill('The pier at dawn')
    await dialog.getByRole('button', { name: 'Post as the group' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('toasts')).toContainText('Posting “Harbour walk” as the group')

    // The post is in the group's own repository, as any atproto reader finds it, and listed in the window.
    await expect(page.getByTestId('public-post').first()).toContainText('Harbour walk on Sunday at ten. All welcome!', { timeout: 15_000 })
    await expect(page.getByTestId('public-post').first()).toContainText('with a picture')
    const url = new URL('/xrpc/com.atproto.repo.listRecords', app.stack.host.url)
    url.search = new URLSearchParams({ repo: groupDid, collection: 'app.bsky.feed.post' }).toString()
    const listed = (await (await fetch(url)).json()) as { records: { value: { text: string } }[] }
    expect(listed.records.map((r) => r.value.text)).toEqual(['Harbour walk on Sunday at ten. All welcome!'])

    // Pinned to the group's public profile.
    await page.getByTestId('public-post').first().getByRole('button', { name: 'Pin to the group’s profile' }).click()
    await expect(page.getByTestId('public-post').first().getByTestId('post-pinned')).toBeVisible({ timeout: 15_000 })
  })
})
