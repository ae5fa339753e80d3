import type { Page } from '@playwright/test'
import { test, expect, openSignedIn, type AppUnderTest } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup, syncNow } from './support/start-group.js'
import { axeViolations } from './support/axe.js'

const handleOf = (app: AppUnderTest, name: 'outsider' | 'member') => app.stack.accounts.find((a) => a.name === name)!.handle
/** How the window's words name a demo person: their profile's name and their handle. */
const spokenName = (app: AppUnderTest, name: 'outsider' | 'member') => {
  const a = app.stack.accounts.find((x) => x.name === name)!
  return `${a.displayName} (@${a.handle})`
}

/** The owner signed in, a new approval group on its join requests, and the outsider asking to join, shown with their handle. */
async function oneAsking(page: Page, app: AppUnderTest, prefix: string) {
  await openSignedIn(page, app, 'owner')
  const { groupDid } = await startGroup(page, { prefix, name: 'Undo club', policy: 'approval', section: 'Join requests' })
  const person = await asPeer(app.stack, 'outsider')
  expect((await person.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('pending')
  await syncNow(page)
  await expect(page.getByTestId(`request-${person.did}`)).toContainText(`@${handleOf(app, 'outsider')}`, { timeout: 15_000 })
  const owner = await asPeer(app.stack, 'owner')
  const waitingOnHost = async () => (((await owner.query('example.groups.listJoinRequests', { group: groupDid })).body.requests as { did: string }[]) ?? []).map((r) => r.did)
  return { groupDid, person, waitingOnHost }
}

/** Focuses the first request from the keyboard (/ then ↓) and presses `key` on it. */
async function keyOnFirstRequest(page: Page, key: string) {
  await page.getByLabel('Search join requests').focus()
  await page.keyboard.press('ArrowDown')
  await expect(page.locator('[data-testid="requests-list"] > li:focus')).toHaveAttribute('aria-posinset', '1')
  await page.keyboard.press(key)
}

/** An open group with the member in it holding the moderator role (given on the host), on its members list. */
async function aModerator(page: Page, app: AppUnderTest, prefix: string) {
  await openSignedIn(page, app, 'owner')
  const { groupDid } = await startGroup(page, { prefix, name: 'Undo roles', policy: 'open', section: 'Members' })
  const member = await asPeer(app.stack, 'member')
  expect((await member.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
  const owner = await asPeer(app.stack, 'owner')
  expect((await owner.call('example.groups.grantRole', { group: groupDid, did: member.did, role: 'moderator' })).status).toBe(200)
  await syncNow(page)
  const roles = page.getByTestId(`roles-${member.did}`)
  await expect(roles.locator('[data-role="moderator"]')).toBeVisible()
  await expect(page.getByTestId(`member-${member.did}`)).toContainText(`@${handleOf(app, 'member')}`, { timeout: 15_000 })
  const rolesOnHost = async () =>
    (((await owner.query('example.groups.listMembers', { group: groupDid })).body.members as { did: string; roles: string[] }[]) ?? []).find((m) => m.did === member.did)?.roles ?? []
  return { member, roles, rolesOnHost }
}

test.describe('undo', () => {
  // The window's own hold (6 s), which these tests are about; other specs hold 1 s (fixtures.ts).
  test.use({ undoHoldMs: null })

  test('d on a join request says what it did and offers Undo; Ctrl+Z before it is sent brings the request back and nothing reaches the host', async ({ page, app }, testInfo) => {
    const { person, waitingOnHost } = await oneAsking(page, app, 'undod')
    const who = spokenName(app, 'outsider')
    await keyOnFirstRequest(page, 'd')

    // Said at once, by name, in a polite live region, with Undo beside it.
    const said = page.getByRole('status').filter({ hasText: `Denied ${who}’s request.` })
    await expect(said).toBeVisible()
    await expect(said.getByRole('button', { name: 'Undo' })).toBeVisible()
    await expect(page.getByTestId(`request-${person.did}`)).toContainText('Sending…')

    // Ctrl+Z, focus still in the list: the request is back, undecided. (Straight away: the
    // axe scan of the held toast comes last, since on a loaded machine it alone outlasted the
    // 6 s hold, and Ctrl+Z then came after the send.)
    await page.keyboard.press('Control+z')
    await expect(page.getByRole('status').filter({ hasText: `Undone: ${who}’s request is waiting again; nothing was sent.` })).toBeVisible()
    await expect(page.getByRole('button', { name: new RegExp(`^Deny ${person.did}`) })).toBeVisible()
    expect(await app.callInputs('outbox.cancel')).toHaveLength(1)

    // Well past the hold, the host never heard of it: the request still waits there.
    await page.waitForTimeout(8_000)
    expect(await waitingOnHost()).toEqual([person.did])
    await expect(page.getByTestId(`request-${person.did}`)).not.toContainText('Sending…')
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date')

    // The deny held again, with its toast and Undo, passes axe (it is sent once the hold ends).
    await keyOnFirstRequest(page, 'd')
    await expect(page.getByRole('status').filter({ hasText: `Denied ${who}’s request.` }).getByRole('button', { name: 'Undo' })).toBeVisible()
    await expect(page.getByTestId(`request-${person.did}`)).toContainText('Sending…')
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: testInfo.outputPath('undo-toast.png') })
  })

  test('taking a role with a chip’s × is held with Undo: the Undo button keeps the role, on the host too', async ({ page, app }) => {
    const { member, roles, rolesOnHost } = await aModerator(page, app, 'undorole')
    const who = spokenName(app, 'member')

    await page.getByRole('button', { name: `Take the moderator role from ${member.did}` }).click()
    const said = page.getByRole('status').filter({ hasText: `Took the moderator role from ${who}.` })
    await expect(said).toBeVisible()
    await expect(roles.locator('[data-role="moderator"]')).toHaveCount(0)

    // From the keyboard: Tab to the Undo button is possible; here it is focused and pressed.
    await said.getByRole('button', { name: 'Undo' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('status').filter({ hasText: `Undone: ${who} keeps the moderator role; nothing was sent.` })).toBeVisible()
    await expect(roles.locator('[data-role="moderator"]')).toBeVisible()
    // Focus went back to the work, not to the top of the window.
    await expect(page.locator('body')).not.toBeFocused()

    await page.waitForTimeout(8_000)
    expect(await rolesOnHost()).toContain('moderator')
    expect(((await app.callInputs('groups.act')) as { action: { kind: string } }[]).filter((c) => c.action.kind === 'member.revokeRole')).toHaveLength(1)
  })

  test.describe('once it was sent', () => {
    // The core sends at once (no hold): the window still offers Undo, as at the end of a hold.
    test.use({ undoHoldMs: 0 })

    test('Undo of a sent deny says plainly it was sent, and what can be done instead', async ({ page, app }) => {
      const { person, waitingOnHost } = await oneAsking(page, app, 'undosent')
      const who = spokenName(app, 'outsider')
      await keyOnFirstRequest(page, 'd')
      const said = page.getByRole('status').filter({ hasText: `Denied ${who}’s request.` })
      await expect(said).toBeVisible()
      // The toast stays while the pointer is on it.
      await said.hover()
      await expect.poll(waitingOnHost, { timeout: 15_000 }).toEqual([])

      await page.keyboard.press('Control+z')
      await expect(page.getByTestId('toasts')).toHaveAttribute('role', 'status')
      await expect(page.getByTestId('toasts')).toContainText(
        `Too late to undo: it was already sent, so ${who}’s request was denied. They can ask to join again, or you can invite them from Invites.`,
      )
      await expect(page.getByTestId(`request-${person.did}`)).toHaveCount(0, { timeout: 15_000 })
    })

    test('Undo of a sent role removal offers to give the role back, and does', async ({ page, app }) => {
      const { member, roles, rolesOnHost } = await aModerator(page, app, 'undogive')
      const who = spokenName(app, 'member')
      await page.getByRole('button', { name: `Take the moderator role from ${member.did}` }).click()
      const said = page.getByRole('status').filter({ hasText: `Took the moderator role from ${who}.` })
      await said.hover()
      await expect.poll(rolesOnHost, { timeout: 15_000 }).not.toContain('moderator')

      await said.getByRole('button', { name: 'Undo' }).click()
      const answer = page.getByRole('status').filter({ hasText: `Too late to undo: it was already sent, so ${who} no longer has the moderator role.` })
      await expect(answer).toBeVisible()
      await answer.getByRole('button', { name: 'Give it back' }).click()
      await expect(page.getByTestId('toasts')).toContainText(`Giving the moderator role back to ${who}.`)
      await expect.poll(rolesOnHost, { timeout: 15_000 }).toContain('moderator')
      await expect(roles.locator('[data-role="moderator"]')).toBeVisible({ timeout: 15_000 })
    })
  })

  test('the pending changes page shows a held change with Send now, which sends it at once', async ({ page, app }) => {
    const { person, waitingOnHost } = await oneAsking(page, app, 'undosend')
    await page.getByRole('button', { name: new RegExp(`^Deny ${person.did}`) }).click()
    await page.keyboard.press('g')
    await page.keyboard.press('p')
    await expect(page.getByTestId('outbox-held')).toContainText('Held a few seconds so it can be undone')
    await page.getByRole('button', { name: /^Send now: / }).click()
    // Sooner than the 6 s hold would have let it go.
    await expect.poll(waitingOnHost, { timeout: 4_000 }).toEqual([])
  })
})
