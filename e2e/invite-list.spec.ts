import { test, expect } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup } from './support/start-group.js'
import { axeViolations } from './support/axe.js'

test.describe('inviting a list of people', () => {
  test('an organizer pastes a list, sees what became of each person, and the same list again invites nobody twice', async ({ page, app, signedIn: owner }) => {
    void owner
    await startGroup(page, { prefix: 'invlist', name: 'Choir', policy: 'invite', section: 'Invites' })
    const handleOf = (name: 'outsider' | 'outsider2') => app.stack.accounts.find((a) => a.name === name)!.handle
    const list = `handle\n@${handleOf('outsider')}\n${handleOf('outsider2')}\nnobody-such.test\nnot a handle\n${handleOf('outsider')}\n`

    await page.getByRole('button', { name: 'Invite a list…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Invite a list of people' })
    await dialog.getByLabel(/Handles or DIDs/).fill(list)
    await expect(dialog.locator('#invite-list-count')).toHaveText('3 people found; not handles: not a handle')
    expect(await axeViolations(page, { include: '[data-testid="invite-list-dialog"]' })).toEqual([])
    await dialog.getByRole('button', { name: 'Invite 3' }).click()

    const results = dialog.getByTestId('invite-list-results')
    await expect(results.locator('tbody tr')).toHaveCount(3)
    await expect(results.locator('tr[data-outcome="invited"]')).toHaveCount(2)
    await expect(results.locator('tr[data-outcome="notFound"]')).toContainText('No account has the handle @nobody-such.test')
    await expect(page.getByTestId('toasts')).toContainText('Inviting 2 people')
    await dialog.getByRole('button', { name: 'Done' }).click()

    const outsider = await asPeer(app.stack, 'outsider')
    await expect(page.getByTestId(`invite-${outsider.did}`)).toBeVisible({ timeout: 15_000 })

    // The same list again: both are named as already invited, and nothing new is sent.
    await page.getByRole('button', { name: 'Invite a list…' }).click()
    await dialog.getByLabel(/Handles or DIDs/).fill(list)
    await dialog.getByRole('button', { name: 'Invite 3' }).click()
    await expect(dialog.getByTestId('invite-list-results').locator('tr[data-outcome="alreadyInvited"]')).toHaveCount(2)
    await expect(page.getByTestId('toasts')).toContainText('Nobody new to invite in that list')
  })
})
