import { test, expect, signInThroughPds } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup } from './support/start-group.js'

/** A well-formed did:plc that the PLC directory has never heard of. */
const UNKNOWN_DID = 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa'

test.describe('invites', () => {
  test('an organizer invites someone, sees the invite, and revokes it; an unreachable invitee is explained plainly', async ({ page, app }, testInfo) => {
    const owner = app.stack.accounts.find((a) => a.name === 'owner')!
    const invitee = await asPeer(app.stack, 'outsider2')
    await app.open(page)
    await signInThroughPds(page, owner.handle, owner.password)
    const { groupDid } = await startGroup(page, { prefix: 'invites', name: 'Reading circle', policy: 'invite', section: 'Invites' })
    await expect(page.getByTestId('invites-empty')).toBeVisible()

    // Something that is not a DID is refused before anything is sent.
    await page.getByLabel('Their DID').fill('not a did')
    await page.getByRole('button', { name: 'Send invite' }).click()
    await expect(page.getByTestId('invite-error')).toContainText('Enter the person’s DID')

    // Invite a real person, with a message.
    await page.getByLabel('Their DID').fill(invitee.did)
    await page.getByLabel('Message (optional)').fill('Come read with us')
    await page.getByRole('button', { name: 'Send invite' }).click()
    const row = page.getByTestId(`invite-${invitee.did}`)
    await expect(row).toContainText('Come read with us')
    const revoke = page.getByRole('button', { name: `Revoke the invite for ${invitee.did}` })
    await expect(revoke).toBeVisible({ timeout: 15_000 })
    await expect(row.getByTestId('invite-awaiting')).toHaveCount(0)

    // Invite someone the network cannot reach yet: the host keeps a pending:<did> invite.
    await page.getByLabel('Their DID').fill(UNKNOWN_DID)
    await page.getByRole('button', { name: 'Send invite' }).click()
    const awaiting = page.getByTestId(`invite-${UNKNOWN_DID}`).getByTestId('invite-awaiting')
    await expect(awaiting).toHaveText('They are not reachable yet; the invite still works when they ask to join.', { timeout: 15_000 })
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date')
    await page.screenshot({ path: testInfo.outputPath('invites.png'), fullPage: true })

    // Revoke the first invite: it leaves the list, and the host no longer honours it.
    await revoke.click()
    await expect(row).toBeHidden({ timeout: 15_000 })
    await expect(page.getByTestId(`invite-${UNKNOWN_DID}`)).toBeVisible()
    expect((await invitee.call('example.groups.requestJoin', { group: groupDid })).body.error).toBe('InviteRequired')
  })
})
