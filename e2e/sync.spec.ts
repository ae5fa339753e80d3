import { test, expect } from './support/fixtures.js'
import { openSection, startGroup, syncNow } from './support/start-group.js'
import { asPeer } from './support/peer.js'
import { takeHostDown } from './support/stack-control.js'

test.describe('sync', () => {
  test('a group whose host cannot be reached is named plainly, keeps what was last seen, and recovers', async ({ page, signedIn: _owner }, testInfo) => {
    const { handle } = await startGroup(page, { prefix: 'synced', name: 'Lighthouse keepers', policy: 'approval', section: 'Members' })
    await expect(page.getByTestId('member-count')).toHaveText('1 member')
    await syncNow(page)
    await expect(page.getByTestId('sync-failed')).toHaveCount(0)

    const bringBack = await takeHostDown()
    try {
      await syncNow(page)
      // Said once in the top bar (for every group on that host: the owner's groups found
      // after sign-in are there too), beside the group in the switcher, and on the group itself.
      await expect(page.getByTestId('sync-failed')).toHaveText(/^\d+ groups? not synced\s*$/)
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

  test('an invite made offline is kept, listed as waiting, and sent once the host is back', async ({ page, app, signedIn: _owner }, testInfo) => {
    const invitee = await asPeer(app.stack, 'outsider')
    await startGroup(page, { prefix: 'offline', name: 'Night walkers', policy: 'invite', section: 'Invites' })
    await expect(page.getByTestId('invites-empty')).toBeVisible()

    const bringBack = await takeHostDown()
    try {
      await page.getByLabel('Their handle or DID').fill(invitee.did)
      await page.getByRole('button', { name: 'Send invite' }).click()
      // Shown at once from the cache, marked as not yet sent; the top bar says why.
      await expect(page.getByTestId(`invite-${invitee.did}`)).toContainText('Sending…')
      await expect(page.getByTestId('connection-state')).toHaveText('Offline · 1 waiting', { timeout: 15_000 })
      await page.getByTestId('connection-state').click()
      // Who, for which group, and why it waits, in words: not a method name or a socket error.
      const row = page.getByTestId('outbox-list').locator('li')
      // Named by handle (looked up when it was typed), with the name if the profile is known: never the DID.
      const { handle } = app.stack.accounts.find((a) => a.name === 'outsider')!
      await expect(row).toContainText(new RegExp(`Invite (.+ \\()?@${handle.replaceAll('.', '\\.')}\\)? · Night walkers`))
      await expect(row).not.toContainText('did:')
      await expect(row).toContainText('Waiting to send')
      await expect(row).toContainText('The group host cannot be reached right now. Your change is kept and will be sent when it is back.')
      await expect(row).not.toContainText('example.groups')
      await page.screenshot({ path: testInfo.outputPath('offline-waiting.png'), fullPage: true })
    } finally {
      await bringBack()
    }

    // Back online: the next sync sends it, once.
    await syncNow(page)
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date', { timeout: 20_000 })
    await expect(page.getByTestId('outbox-list')).toHaveCount(0)
    await page.getByRole('link', { name: 'Night walkers' }).click()
    await openSection(page, 'Invites')
    await expect(page.getByRole('button', { name: `Revoke the invite for ${invitee.did}` })).toBeVisible({ timeout: 15_000 })
    await expect(page.getByTestId('invites-list').locator('li')).toHaveCount(1)
  })
})
