import { test, expect, watchListPages } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { openSection, startGroup } from './support/start-group.js'
import { seedCachedInvites } from '../test/support/seed-cache.js'

/** A well-formed did:plc that the PLC directory has never heard of. */
const UNKNOWN_DID = 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa'

test.describe('invites', () => {
  test('an organizer invites someone, sees the invite, and revokes it; an unreachable invitee is explained plainly', async ({ page, app, signedIn: owner }, testInfo) => {
    const invitee = await asPeer(app.stack, 'outsider2')
    const { groupDid } = await startGroup(page, { prefix: 'invites', name: 'Reading circle', policy: 'invite', section: 'Invites' })
    await expect(page.getByTestId('invites-empty')).toBeVisible()

    // Something that is neither a handle nor a DID is refused before anything is sent,
    // and so is a handle nobody has.
    await page.getByLabel('Their handle or DID').fill('not a handle')
    await page.getByRole('button', { name: 'Send invite' }).click()
    await expect(page.getByTestId('invite-error')).toHaveText('"not a handle" is neither a handle (like alice.example.com) nor a DID.')
    await page.getByLabel('Their handle or DID').fill('nobody-such.test')
    await page.getByRole('button', { name: 'Send invite' }).click()
    await expect(page.getByTestId('invite-error')).toContainText('No account has the handle @nobody-such.test')
    await expect(page.getByLabel('Their handle or DID')).toBeFocused()

    // Invite a real person by their handle, as people know each other, with a message.
    const handle = app.stack.accounts.find((a) => a.name === 'outsider2')!.handle
    await page.getByLabel('Their handle or DID').fill(`@${handle}`)
    await page.getByLabel('Message (optional)').fill('Come read with us')
    await page.getByRole('button', { name: 'Send invite' }).click()
    // Said in the window's toast, by handle (the form's own line is for the look-up under way).
    await expect(page.getByTestId('toasts')).toContainText(`Invited @${handle}; the invite is listed below.`)
    await expect(page.getByTestId('invite-error')).toHaveCount(0)
    const row = page.getByTestId(`invite-${invitee.did}`)
    await expect(row).toContainText('Come read with us')
    const revoke = page.getByRole('button', { name: `Revoke the invite for ${invitee.did}` })
    await expect(revoke).toBeVisible({ timeout: 15_000 })
    await expect(row.getByTestId('invite-awaiting')).toHaveCount(0)

    // Invite someone the network cannot reach yet: the host keeps a pending:<did> invite.
    await page.getByLabel('Their handle or DID').fill(UNKNOWN_DID)
    await page.getByRole('button', { name: 'Send invite' }).click()
    const awaiting = page.getByTestId(`invite-${UNKNOWN_DID}`).getByTestId('invite-awaiting')
    await expect(awaiting).toHaveText('They are not reachable yet; the invite still works when they ask to join.', { timeout: 15_000 })
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date')
    await page.screenshot({ path: testInfo.outputPath('invites.png'), fullPage: true })

    // Inviting someone already in the group: the host refuses, no row is left, and the
    // reason is shown above the list, saying whom it was about (here, the owner: "yourself").
    await page.getByLabel('Their handle or DID').fill(owner.did)
    await page.getByRole('button', { name: 'Send invite' }).click()
    const refused = page.getByTestId('unlisted-problem').filter({ hasText: 'Invite yourself' })
    await expect(refused).toContainText('They joined the group before the invite was sent.', { timeout: 15_000 })
    await expect(page.getByTestId(`invite-${owner.did}`)).toHaveCount(0)

    // Revoke the first invite: it leaves the list, and the host no longer honours it.
    await revoke.click()
    await expect(row).toBeHidden({ timeout: 15_000 })
    await expect(page.getByTestId(`invite-${UNKNOWN_DID}`)).toBeVisible()
    expect((await invitee.call('example.groups.requestJoin', { group: groupDid })).body.error).toBe('InviteRequired')
  })

  test('thousands of outstanding invites: newest first, windowed, searched by DID or message in the core', async ({ page, app, signedIn: owner }, testInfo) => {
    const { groupDid } = await startGroup(page, { prefix: 'guestlist', name: 'Guest list', policy: 'invite', section: 'Members' })
    // 3,000 invites, as a sync of a group that invited a whole conference leaves them.
    await seedCachedInvites(app.dataDir, owner.did, groupDid, 3000)
    const pages = await watchListPages(app, 'groups.invites')
    await openSection(page, 'Invites')
    await expect(page.getByTestId('invite-count')).toHaveText('3,000 invites')
    const rows = page.getByTestId('invites-list').locator('li')
    expect(await rows.count()).toBeLessThan(60)
    await pages.expectOnlyRowsInView()
    // Newest first: the last one sent is on top, the first at the very bottom.
    await expect(rows.first()).toHaveAttribute('data-testid', 'invite-did:plc:guest002999xxxxxxxxxxxxx')
    await page.getByTestId('invites-viewport').evaluate((el) => (el.scrollTop = el.scrollHeight))
    await expect(page.getByTestId('invite-did:plc:guest000000xxxxxxxxxxxxx')).toBeVisible()
    // By the invite's words (every third has a message naming its table)...
    await page.getByLabel('Search invites').fill('table 2997')
    await expect(page.getByTestId('invite-count')).toHaveText('1 of 3,000 invites')
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toContainText('Table 2997 at the meetup')
    // ...or by DID; and a search that finds nothing says so.
    await page.getByLabel('Search invites').fill('guest00123')
    await expect(rows).toHaveCount(10)
    await page.getByLabel('Search invites').fill('nobody-such')
    await expect(page.getByTestId('invites-no-match')).toContainText('No invite matches “nobody-such”')
    // An invitee already on the list is not invited twice, though their row is far out of view.
    await page.getByLabel('Search invites').fill('')
    await page.getByLabel('Their handle or DID').fill('did:plc:guest000001xxxxxxxxxxxxx')
    await page.getByRole('button', { name: 'Send invite' }).click()
    await expect(page.getByTestId('invite-error')).toHaveText('They already have an invite to this group.')
    await page.screenshot({ path: testInfo.outputPath('invites-thousands.png'), fullPage: true })
  })
})
