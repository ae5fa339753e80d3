import { test, expect } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup, syncNow } from './support/start-group.js'

test.describe('the sidebar', () => {
  test('keeps its order while requests arrive (nothing moves under the pointer), and orders by what waits at the next visit', async ({ page, app, signedIn: _owner }) => {
    const quiet = await startGroup(page, { prefix: 'sbquiet', name: 'Sidebar quiet', policy: 'approval', section: 'Members' })
    await page.getByRole('link', { name: '+ Add or start a group' }).click()
    const busy = await startGroup(page, { prefix: 'sbbusy', name: 'Sidebar busy', policy: 'approval', section: 'Join requests' })
    const sidebar = page.getByRole('navigation', { name: 'Your groups' })
    const links = sidebar.locator('[data-testid^="group-link-"]')
    const position = async (handle: string) => (await links.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).indexOf(`group-link-${handle}`)
    const before = await position(busy.handle)
    expect(before).toBeGreaterThan(await position(quiet.handle))

    // Three people ask to join the group listed lower: it now needs attention more than any, and stays where it is.
    for (const name of ['outsider', 'outsider2', 'member'] as const) {
      expect((await (await asPeer(app.stack, name)).call('example.groups.requestJoin', { group: busy.groupDid })).body.status).toBe('pending')
    }
    await syncNow(page)
    await expect(sidebar.getByTestId(`group-link-${busy.handle}`)).toContainText('3', { timeout: 15_000 })
    expect(await position(busy.handle)).toBe(before)
    // The next visit orders by attention: the group with three waiting comes before the quiet one.
    await page.reload()
    await expect(sidebar.getByTestId(`group-link-${busy.handle}`)).toBeVisible()
    expect(await position(busy.handle)).toBeLessThan(await position(quiet.handle))
  })
})
