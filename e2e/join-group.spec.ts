import { test, expect, openSignedIn } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { syncNow } from './support/start-group.js'
import { axeViolations } from './support/axe.js'

test.describe('joining a group', () => {
  test('a person finds a group by handle, asks to join, withdraws, asks again, is admitted and accepts, from the keyboard', async ({ page, app }) => {
    // A group of this test's own, run by the admin account elsewhere.
    const organizer = await asPeer(app.stack, 'admin')
    const handle = `join${Date.now().toString(36)}.groups.test`
    const made = await organizer.call('example.groups.createGroup', { handle, displayName: 'Tuesday walkers', joinPolicy: 'approval' })
    expect(made.status).toBe(200)
    const groupDid = made.body.did as string

    const person = await openSignedIn(page, app, 'outsider')
    await page.getByLabel('Group handle or DID').fill(handle)
    await page.keyboard.press('Enter')

    // The group's name and who may join.
    await expect(page.getByRole('heading', { name: 'Tuesday walkers', level: 1 })).toBeVisible()
    await expect(page.getByTestId('join-policy')).toHaveText('Anyone may ask to join; the organizers decide.')
    expect(await axeViolations(page)).toEqual([])

    // Ask, with a message, from the keyboard.
    await page.getByLabel('Message to the organizers (optional)').focus()
    await page.keyboard.type('I walk on Tuesdays')
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: 'Ask to join' })).toBeFocused()
    await page.keyboard.press('Enter')
    const waiting = page.getByTestId('join-request')
    await expect(waiting).toContainText('waiting for an answer', { timeout: 15_000 })
    await expect(waiting).toContainText('I walk on Tuesdays')
    expect(await axeViolations(page)).toEqual([])
    const requests = async () => ((await organizer.query('example.groups.listJoinRequests', { group: groupDid })).body.requests as { did: string; message?: string }[]) ?? []
    await expect.poll(requests).toEqual([expect.objectContaining({ did: person.did, message: 'I walk on Tuesdays' })])

    // Withdraw, then ask again.
    await page.getByRole('button', { name: 'Withdraw request' }).press('Enter')
    await expect(page.getByRole('button', { name: 'Ask to join' })).toBeVisible({ timeout: 15_000 })
    await expect.poll(requests).toEqual([])
    await page.getByRole('button', { name: 'Ask to join' }).press('Enter')
    await expect(waiting).toContainText('waiting for an answer', { timeout: 15_000 })
    await expect.poll(requests).toEqual([expect.objectContaining({ did: person.did })])

    // The organizer admits; the next sync shows the membership, to be accepted.
    expect((await organizer.call('example.groups.admitMember', { group: groupDid, did: person.did, decision: 'admit' })).status).toBe(200)
    await syncNow(page)
    await expect(page.getByText(/You are member/)).toBeVisible()
    const accept = page.getByRole('button', { name: 'Accept membership' })
    await expect(accept).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
    // Focus and Enter in one step on the button as it is then: a change notice may still
    // re-render the panel after the sync, and a separate focus() can land on the old one.
    await accept.press('Enter')
    // Answered at once: a second click is not needed (it once gave no word for minutes).
    await expect(page.getByTestId('toasts')).toContainText('Accepting your membership: it is being saved on your account’s server.')
    await expect(page.getByTestId('join-panel')).toHaveCount(0, { timeout: 15_000 })
    // The acceptance is on the person's own PDS, and the host counted it.
    const members = async () => ((await organizer.query('example.groups.listMembers', { group: groupDid })).body.members as { did: string; accepted: boolean }[]) ?? []
    await expect.poll(async () => (await members()).find((m) => m.did === person.did)?.accepted, { timeout: 15_000 }).toBe(true)
  })
})
