import { test, expect, openSignedIn } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup, syncNow } from './support/start-group.js'

/** Issue 26's smaller points: what a person is told where the window used to say too little. */
test.describe('plain words in the smaller places', () => {
  test('a group handle with a space is named before anything is sent, with what a handle looks like', async ({ page, signedIn: _owner }) => {
    await page.getByLabel('Group handle or DID').fill('open group.groups.test')
    await page.getByRole('button', { name: 'Add group' }).click()
    await expect(page.getByTestId('add-group-error')).toHaveText(
      'A handle has no spaces. A handle looks like bookclub.example.com: words of letters, digits and hyphens joined by dots, with no spaces.',
    )
    await expect(page.getByTestId('add-group-error')).not.toContainText('could not accept')

    await page.getByLabel('Handle', { exact: true }).fill('book club.groups.test')
    await page.getByRole('button', { name: 'Start group' }).click()
    await expect(page.getByTestId('create-group-error')).toHaveText(/^A handle has no spaces\./)
  })

  test('refused notifications are said to be blocked, with where to allow them', async ({ page, app }) => {
    // The browser's answer to the request is "denied" (as after the person blocks them).
    await page.addInitScript(() => {
      const N = (globalThis as unknown as { Notification: { requestPermission: () => Promise<string> } }).Notification
      Object.defineProperty(N, 'permission', { configurable: true, get: () => 'default' })
      N.requestPermission = () => Promise.resolve('denied')
    })
    await openSignedIn(page, app, 'owner')
    await page.getByRole('button', { name: 'Turn on notifications' }).click()
    const blocked = page.getByTestId('notifications-blocked')
    await expect(blocked).toContainText('Notifications are blocked')
    await expect(blocked).toContainText(app.shell === 'loopback' ? 'site settings' : 'Notifications')
    await expect(blocked).toHaveAttribute('role', 'status')
    await blocked.getByRole('button', { name: 'Dismiss' }).click()
    await expect(blocked).toHaveCount(0)
  })

  test('a resolved report about an account reads as the kind and the person, words apart', async ({ page, app, signedIn: _owner }) => {
    const { groupDid } = await startGroup(page, { prefix: 'resolved', name: 'Resolved club', policy: 'open', section: 'Moderation' })
    const reporter = await asPeer(app.stack, 'member')
    const reported = await asPeer(app.stack, 'outsider')
    for (const p of [reporter, reported]) expect((await p.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    const subject = { $type: 'example.groups.defs#subjectAccount', did: reported.did }
    expect((await reporter.call('example.groups.createReport', { group: groupDid, subject, reasonType: 'spam' })).status).toBe(200)
    await syncNow(page)
    const outsider = app.stack.accounts.find((a) => a.name === 'outsider')!
    // Its handle is looked up once it is in the queue.
    await expect(page.getByTestId(`subject-${reported.did}`)).toContainText(`@${outsider.handle}`, { timeout: 15_000 })
    // "Review", not a second "Open" beside the Open status.
    await expect(page.getByTestId(`subject-${reported.did}`).getByRole('button', { name: /^Review the report about / })).toHaveText('Review')

    const owner = await asPeer(app.stack, 'owner')
    expect((await owner.call('example.groups.updateSubject', { group: groupDid, subject, status: 'resolved' })).status).toBe(200)
    await syncNow(page)
    await page.getByRole('radio', { name: 'Resolved' }).check()
    const row = page.getByTestId(`resolved-${reported.did}`)
    await expect(row).toBeVisible({ timeout: 15_000 })
    await expect(row.getByTestId('resolved-kind')).toHaveText('Account:')
    await expect(row.getByTestId('resolved-who')).toContainText(`@${outsider.handle}`)
    // What a person reads: the kind and the name with a space between, no DID glued on.
    expect(await row.evaluate((el) => (el as unknown as { innerText: string }).innerText)).toMatch(/Account:\s+\S/)
    await expect(row).not.toContainText('Accountdid:')
  })
})
