import { test, expect } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { openSection, startGroup, syncNow } from './support/start-group.js'
import { takeHostDown } from './support/stack-control.js'

/** Made-up accounts a member reports: each its own subject in the queue (under the host's 50 waiting per reporter). */
const N = 40
const reportedDid = (run: string, i: number) => `did:plc:bulk${run}${i.toString().padStart(3, '0')}`

test.describe('acting on many at once', () => {
  // The bulk is sent as soon as it is queued (held for Undo otherwise: fixtures.ts).
  test.use({ undoHoldMs: 0 })

  test('a bulk resolve with the host killed mid-way: once the host is back every report is resolved, once each, none lost', async ({ page, app, signedIn: _owner }, testInfo) => {
    test.setTimeout(180_000)
    const { groupDid } = await startGroup(page, { prefix: 'bulkmod', name: 'Spam patrol', policy: 'open', section: 'Moderation' })
    const run = Date.now().toString(36)
    const dids = Array.from({ length: N }, (_, i) => reportedDid(run, i))
    const reporter = await asPeer(app.stack, 'member')
    expect((await reporter.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    for (const did of dids) {
      const res = await reporter.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did }, reasonType: 'spam' })
      expect(res.status).toBe(200)
    }
    await syncNow(page)
    await expect(page.getByRole('radio', { name: `All (${N})` })).toBeVisible({ timeout: 15_000 })

    // A click chooses one report and a shift-click the range to another.
    const box = (i: number) => page.getByTestId('subjects-list').getByRole('checkbox').nth(i)
    await box(0).click()
    await box(3).click({ modifiers: ['Shift'] })
    await expect(page.getByRole('button', { name: 'Resolve 4' })).toBeVisible()
    // "All" with some chosen lets them go; pressed again, it chooses every report matching the filters.
    const all = page.getByRole('checkbox', { name: 'Select all reports matching the filters' })
    await all.click()
    await expect(page.getByRole('button', { name: 'Resolve', exact: true })).toBeDisabled()
    await all.click()
    await expect(all).toBeChecked()
    await page.getByRole('button', { name: `Resolve ${N}` }).click()

    // One note for all of them.
    const dialog = page.getByRole('form', { name: `Resolve ${N} reports` })
    await expect(dialog.getByLabel('Note (optional, the same for each)')).toBeFocused()
    await page.keyboard.type('One spam wave')
    await dialog.getByRole('button', { name: `Resolve ${N} reports` }).click()

    // The host dies while the resolves are being sent: once the first is done.
    const summary = page.getByTestId('bulk-summary')
    type Doc = { querySelector(s: string): { textContent: string | null } | null }
    await page.waitForFunction(
      () => /: [1-9]\d* done/.test((globalThis as unknown as { document: Doc }).document.querySelector('[data-testid="bulk-summary"]')?.textContent ?? ''),
      undefined,
      { polling: 'raf', timeout: 30_000 },
    )
    const bringBack = await takeHostDown()
    let midWay = false
    try {
      const text = (await summary.textContent()) ?? ''
      midWay = /waiting/.test(text)
      testInfo.annotations.push({ type: 'host killed', description: `at "${text}"` })
      if (midWay) {
        // What waits says so, in the outbox's words, and nothing is lost.
        await expect(summary).toContainText('waiting')
        await expect(page.getByTestId('bulk-results').getByText('cannot be reached right now').first()).toBeVisible({ timeout: 30_000 })
        await page.screenshot({ path: testInfo.outputPath('bulk-host-down.png'), fullPage: true })
      }
    } finally {
      await bringBack()
    }

    // The host is back: every row is sent (those it took before it died are not doubled).
    await syncNow(page)
    await expect(summary).toHaveText(`Resolve ${N}: ${N} done`, { timeout: 60_000 })
    await expect(page.getByTestId('bulk-results').locator('[data-state="done"]')).toHaveCount(N)
    await expect(page.getByTestId('moderation-empty')).toBeVisible({ timeout: 15_000 })
    await page.screenshot({ path: testInfo.outputPath('bulk-resolved.png'), fullPage: true })

    // Each subject's history on the host: one resolve, with the one note.
    const owner = await asPeer(app.stack, 'owner')
    for (const did of dids) {
      const { body } = await owner.query('example.groups.getSubject', { group: groupDid, subject: did, limit: '100' })
      const history = body.history as { event: string; note?: string }[]
      expect(history.filter((h) => h.event === 'resolve'), did).toEqual([expect.objectContaining({ note: 'One spam wave' })])
      expect((body.subject as { status: string }).status).toBe('resolved')
    }
    // …and the app lists them as resolved.
    await page.getByRole('radio', { name: 'Resolved' }).check()
    await expect(page.getByTestId('resolved-list').locator('li').first()).toBeVisible({ timeout: 15_000 })
  })

  test('a bulk revoke of invites, chosen from the keyboard, says per row what became of it', async ({ page, app, signedIn: _owner }) => {
    const { groupDid } = await startGroup(page, { prefix: 'bulkinv', name: 'Choir', policy: 'invite', section: 'Invites' })
    const owner = await asPeer(app.stack, 'owner')
    const invitees = (['member', 'moderator', 'outsider'] as const).map((name) => app.stack.accounts.find((a) => a.name === name)!)
    for (const i of invitees) expect((await owner.call('example.groups.createInvite', { group: groupDid, invitee: i.did })).status).toBe(200)
    await syncNow(page)
    await expect(page.getByTestId('invites-list').getByRole('checkbox')).toHaveCount(3, { timeout: 15_000 })

    // From the search box into the list; x chooses the first, Shift+X the range to the third.
    await page.getByLabel('Search invites').focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('x')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Shift+X')
    await expect(page.getByTestId('invites-list').getByRole('checkbox', { checked: true })).toHaveCount(3)

    // Revoking many asks first.
    await page.getByRole('button', { name: 'Revoke 3' }).click()
    const dialog = page.getByTestId('revoke-many-dialog')
    await expect(dialog.getByRole('heading', { name: 'Revoke 3 invites?' })).toBeVisible()
    await dialog.getByRole('button', { name: 'Revoke 3 invites' }).click()

    await expect(page.getByTestId('bulk-summary')).toHaveText('Revoke 3: 3 done', { timeout: 30_000 })
    for (const i of invitees) await expect(page.getByTestId(`bulk-result-${i.did}`)).toContainText(`@${i.handle}`)
    await expect(page.getByTestId('invites-empty')).toBeVisible({ timeout: 15_000 })
    const { body } = await owner.query('example.groups.listInvites', { group: groupDid })
    expect(body.invites).toEqual([])
  })

  test('removing many members asks first, with one reason, and each is removed', async ({ page, app, signedIn: _owner }) => {
    const { groupDid } = await startGroup(page, { prefix: 'bulkmem', name: 'Rowing club', policy: 'open', section: 'Members' })
    const joiners = await Promise.all((['outsider', 'outsider2'] as const).map((name) => asPeer(app.stack, name)))
    for (const p of joiners) expect((await p.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    await syncNow(page)
    await openSection(page, 'Members')
    await expect(page.getByTestId('member-count')).toHaveText('3 members', { timeout: 15_000 })

    // "All" chooses everyone but yourself.
    await page.getByRole('checkbox', { name: 'Select all members matching the search' }).click()
    await page.getByRole('button', { name: 'Remove 2' }).click()
    const dialog = page.getByTestId('bulk-members-dialog')
    await expect(dialog.getByRole('heading', { name: 'Remove 2 members from the group?' })).toBeVisible()
    await dialog.getByLabel('Reason (optional, the same for each)').fill('Season is over')
    await dialog.getByRole('button', { name: 'Remove from group' }).click()

    await expect(page.getByTestId('bulk-summary')).toHaveText('Remove 2: 2 done', { timeout: 30_000 })
    await expect(page.getByTestId('member-count')).toHaveText('1 member', { timeout: 15_000 })
  })
})

test.describe('a held bulk resolve', () => {
  // Long enough to press Undo on a busy machine; the window asks for 6 s.
  test.use({ undoHoldMs: 30_000 })

  test('is held back with one Undo that takes back every report before anything reaches the host', async ({ page, app, signedIn: _owner }) => {
    const { groupDid } = await startGroup(page, { prefix: 'bulkundo', name: 'Garden share', policy: 'open', section: 'Moderation' })
    const run = Date.now().toString(36)
    const dids = [0, 1, 2].map((i) => reportedDid(run, i))
    const reporter = await asPeer(app.stack, 'member')
    expect((await reporter.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    for (const did of dids) expect((await reporter.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did }, reasonType: 'spam' })).status).toBe(200)
    await syncNow(page)
    await expect(page.getByRole('radio', { name: 'All (3)' })).toBeVisible({ timeout: 15_000 })

    await page.getByRole('checkbox', { name: 'Select all reports matching the filters' }).click()
    await page.getByRole('button', { name: 'Resolve 3' }).click()
    await page.getByRole('form', { name: 'Resolve 3 reports' }).getByRole('button', { name: 'Resolve 3 reports' }).click()
    await expect(page.getByTestId('bulk-summary')).toHaveText('Resolve 3: 0 done, 3 waiting')
    await page.getByTestId('toasts').getByRole('button', { name: 'Undo' }).click()
    await expect(page.getByTestId('toasts')).toContainText('Undone: nothing was sent (3).')
    await expect(page.getByTestId('bulk-summary')).toHaveText('Resolve 3: 0 done, 3 undone')

    // Nothing reached the host: every report is still open there, with no resolve in its history.
    const owner = await asPeer(app.stack, 'owner')
    for (const did of dids) {
      const { body } = await owner.query('example.groups.getSubject', { group: groupDid, subject: did, limit: '100' })
      expect((body.subject as { status: string }).status).toBe('open')
      expect((body.history as { event: string }[]).filter((h) => h.event === 'resolve')).toEqual([])
    }
    await expect(page.getByRole('radio', { name: 'All (3)' })).toBeVisible()
  })
})
