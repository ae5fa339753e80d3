import { test, expect, openSignedIn } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { axeViolations } from './support/axe.js'

test.describe('invites a person can see', () => {
  test('the invitee sees who invited them to which group, accepts one and is in, and declines another after being asked', async ({ page, app }) => {
    const organizer = await asPeer(app.stack, 'admin')
    const stamp = Date.now().toString(36)
    const made = async (name: string) => {
      const res = await organizer.call('example.groups.createGroup', { handle: `${name.toLowerCase()}${stamp}.groups.test`, displayName: `${name} club`, joinPolicy: 'invite' })
      expect(res.status).toBe(200)
      return res.body.did as string
    }
    const singers = await made('Singers')
    const rowers = await made('Rowers')
    const invitee = app.stack.accounts.find((a) => a.name === 'outsider2')!
    for (const group of [singers, rowers]) {
      expect((await organizer.call('example.groups.createInvite', { group, invitee: invitee.did, message: 'We would love to have you' })).status).toBe(200)
    }

    await openSignedIn(page, app, 'outsider2')
    // The sidebar says invites wait (other tests on this network may have invited this person too), and leads to them.
    await expect(page.getByTestId('switcher-invites')).toContainText(/You’re invited: \d+ groups/, { timeout: 20_000 })
    const waitingBefore = Number(/(\d+)/.exec((await page.getByTestId('switcher-invites').textContent())!)![1])
    expect(waitingBefore).toBeGreaterThanOrEqual(2)
    await page.getByTestId('switcher-invites').click()
    const card = page.getByTestId('my-invites')
    await expect(card.getByRole('heading', { name: 'You’re invited' })).toBeVisible({ timeout: 20_000 })
    const singersInvite = card.getByTestId('my-invite').filter({ hasText: 'Singers club' })
    await expect(singersInvite).toContainText(`Invited by @${app.stack.accounts.find((a) => a.name === 'admin')!.handle}`)
    await expect(singersInvite).toContainText('We would love to have you')
    await expect(singersInvite).not.toContainText('did:')
    expect(await axeViolations(page, { include: '[data-testid="my-invites"]' })).toEqual([])

    // Accept: the group opens, and the host counts the member, accepted.
    await singersInvite.getByRole('button', { name: 'Accept and join' }).click()
    await expect(page.getByRole('heading', { name: 'Singers club', level: 1 })).toBeVisible({ timeout: 15_000 })
    await expect(page.getByRole('status').filter({ hasText: 'Joining Singers club' })).toBeVisible()
    await expect
      .poll(async () => ((await organizer.query('example.groups.listMembers', { group: singers, q: invitee.did })).body.members as { did: string; accepted: boolean }[]).find((m) => m.did === invitee.did)?.accepted, { timeout: 20_000 })
      .toBe(true)

    // Decline the other, after saying yes to the question; nothing is sent before.
    await expect(page.getByTestId('switcher-invites')).toContainText(`You’re invited: ${waitingBefore - 1} group`)
    await page.getByTestId('switcher-invites').click()
    const rowersInvite = page.getByTestId('my-invite').filter({ hasText: 'Rowers club' })
    await rowersInvite.getByRole('button', { name: 'Decline' }).click()
    const dialog = page.getByRole('dialog', { name: /Decline the invite to Rowers club/ })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Keep the invite' })).toBeFocused()
    await dialog.getByRole('button', { name: 'Decline' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Declined the invite to Rowers club' })).toBeVisible()
    await expect(page.getByTestId('my-invite').filter({ hasText: 'Rowers club' })).toHaveCount(0)
    const listed = (await organizer.query('example.groups.listInvites', { group: rowers })).body.invites as { invitee: string }[]
    expect(listed.map((i) => i.invitee)).not.toContain(invitee.did)
  })
})
