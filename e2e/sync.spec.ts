import { test, expect, signInThroughPds } from './support/fixtures.js'
import { startGroup, syncNow } from './support/start-group.js'
import { takeHostDown } from './support/stack-control.js'

test.describe('sync', () => {
  test('a group whose host cannot be reached is named plainly, keeps what was last seen, and recovers', async ({ page, app }, testInfo) => {
    const owner = app.stack.accounts.find((a) => a.name === 'owner')!
    await app.open(page)
    await signInThroughPds(page, owner.handle, owner.password)
    const { handle } = await startGroup(page, { prefix: 'synced', name: 'Lighthouse keepers', policy: 'approval', section: 'Members' })
    await expect(page.getByTestId('member-count')).toHaveText('1 member')
    await syncNow(page)
    await expect(page.getByTestId('sync-failed')).toHaveCount(0)

    const bringBack = await takeHostDown()
    try {
      await syncNow(page)
      // Said once in the top bar, beside the group in the switcher, and on the group itself.
      await expect(page.getByTestId('sync-failed')).toHaveText('1 group not synced')
      await expect(page.getByTestId('connection-state')).toHaveText('Nothing waiting to send')
      await expect(page.getByTestId(`group-link-${handle}`)).toHaveAccessibleName(/not synced/)
      await expect(page.getByTestId('group-sync-failed')).toContainText('Could not sync this group: Could not reach the group’s host.')
      await expect(page.getByTestId('group-sync-failed')).toContainText('What you see is from')
      // What was cached stays on screen.
      await expect(page.getByTestId('member-count')).toHaveText('1 member')
      await page.screenshot({ path: testInfo.outputPath('sync-host-down.png'), fullPage: true })
    } finally {
      await bringBack()
    }

    await syncNow(page)
    await expect(page.getByTestId('sync-failed')).toHaveCount(0)
    await expect(page.getByTestId('group-sync-failed')).toHaveCount(0)
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date')
  })
})
