import { test, expect, watchListPages } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { openSection, startGroup, syncNow } from './support/start-group.js'
import { seedCachedSubjects } from '../test/support/seed-cache.js'

test.describe('moderation queue', () => {
  test('a report made by members shows with its count; escalate, then resolve with a note, and it leaves the queue', async ({ page, app, signedIn: _owner }, testInfo) => {
    const { groupDid } = await startGroup(page, { prefix: 'moderation', name: 'Allotment society', policy: 'open', section: 'Moderation' })
    await expect(page.getByTestId('moderation-empty')).toBeVisible()

    // Three people join; two of them report the third.
    const reporters = [await asPeer(app.stack, 'member'), await asPeer(app.stack, 'moderator')]
    const reported = await asPeer(app.stack, 'outsider')
    for (const p of [...reporters, reported]) expect((await p.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    for (const p of reporters) {
      const res = await p.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: reported.did }, reasonType: 'spam' })
      expect(res.status).toBe(200)
    }
    await syncNow(page)

    const row = page.getByTestId(`subject-${reported.did}`)
    await expect(row.getByTestId('report-count')).toHaveText('Reported by 2 people')
    await expect(row.getByTestId('subject-status')).toHaveText('Open')
    await expect(row).toContainText('last updated')
    // The host names the account by DID; its handle is looked up and shown beside it.
    const { handle, displayName } = app.stack.accounts.find((a) => a.name === 'outsider')!
    await expect(row).toContainText(`@${handle}`, { timeout: 15_000 })
    // …and their profile's name: the dialogs below say it, never the DID.
    await expect(row).toContainText(displayName, { timeout: 15_000 })
    const named = `${displayName} (@${handle})`
    await expect(page.getByRole('navigation', { name: 'Group sections' }).getByRole('link', { name: 'Moderation' })).toContainText('1')
    await page.screenshot({ path: testInfo.outputPath('moderation.png'), fullPage: true })

    // Escalate, with a note.
    await page.getByRole('button', { name: `Escalate the report about ${reported.did}` }).click()
    const escalate = page.getByRole('form', { name: `Escalate the report about ${named}` })
    await expect(escalate.getByLabel('Note (optional)')).toBeFocused()
    await page.keyboard.type('Repeated; the owners should decide')
    await escalate.getByRole('button', { name: 'Escalate' }).click()
    await expect(row.getByTestId('subject-status')).toHaveText('Escalated')
    const resolveButton = page.getByRole('button', { name: `Resolve the report about ${reported.did}` })
    await expect(resolveButton).toBeVisible({ timeout: 15_000 })
    await expect(page.getByRole('button', { name: `Escalate the report about ${reported.did}` })).toHaveCount(0)
    await page.getByRole('radio', { name: 'Escalated (1)' }).check()
    await expect(row).toBeVisible()
    await page.getByRole('radio', { name: 'All (1)' }).check()
    await page.screenshot({ path: testInfo.outputPath('moderation-escalated.png'), fullPage: true })

    // Resolve, with a note: it leaves the queue.
    await resolveButton.click()
    const resolve = page.getByRole('form', { name: `Resolve the report about ${named}` })
    await resolve.getByLabel('Note (optional)').fill('Talked to them; they will stop')
    await page.screenshot({ path: testInfo.outputPath('moderation-resolve.png'), fullPage: true })
    await resolve.getByRole('button', { name: 'Resolve' }).click()
    await expect(row).toBeHidden({ timeout: 15_000 })
    await expect(page.getByTestId('moderation-empty')).toBeVisible()
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date')
  })

  test('a moderator pins a report to the top of the queue from its pane, and unpins it', async ({ page, app, signedIn: _owner }) => {
    const { groupDid } = await startGroup(page, { prefix: 'pinq', name: 'Pinned club', policy: 'open', section: 'Moderation' })
    const reporter = await asPeer(app.stack, 'member')
    expect((await reporter.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    const first = await asPeer(app.stack, 'outsider')
    const later = await asPeer(app.stack, 'outsider2')
    for (const p of [first, later]) expect((await reporter.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: p.did }, reasonType: 'spam' })).status).toBe(200)
    await syncNow(page)
    const rows = page.locator('[data-testid^="subject-did:"]')
    await expect(rows).toHaveCount(2)
    // Most recently active first: the later report on top.
    await expect(rows.first()).toHaveAttribute('data-testid', `subject-${later.did}`)

    await page.getByTestId(`subject-${first.did}`).getByRole('button', { name: /^Review the report about / }).click()
    const pane = page.getByTestId('subject-pane')
    await pane.getByRole('button', { name: 'Pin to top' }).click()
    await expect(pane.getByTestId('pane-pinned')).toHaveText('Pinned by you')
    await page.keyboard.press('Escape')
    await expect(pane).toBeHidden()
    // On top now, marked, for the whole team (the host keeps it).
    await expect(rows.first()).toHaveAttribute('data-testid', `subject-${first.did}`)
    await expect(rows.first().getByTestId('subject-pinned')).toHaveText('Pinned')
    await expect(rows.first().getByTestId('subject-pinned')).toHaveAttribute('title', 'Pinned to the top by you')
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date', { timeout: 15_000 })
    await syncNow(page)
    await expect(rows.first()).toHaveAttribute('data-testid', `subject-${first.did}`)

    await page.getByTestId(`subject-${first.did}`).getByRole('button', { name: /^Review the report about / }).click()
    await pane.getByRole('button', { name: 'Unpin' }).click()
    await expect(pane.getByTestId('pane-pinned')).toHaveCount(0)
    await page.keyboard.press('Escape')
    await expect(rows.first()).toHaveAttribute('data-testid', `subject-${later.did}`)
    await expect(page.getByTestId('subject-pinned')).toHaveCount(0)
  })

  test('a queue of thousands is windowed, filtered and searched in the core', async ({ page, app, signedIn: owner }, testInfo) => {
    const { groupDid } = await startGroup(page, { prefix: 'spamwave', name: 'Spam wave', policy: 'open', section: 'Members' })
    // 2,000 reported accounts, as a sync during a spam wave leaves them; one in four escalated.
    await seedCachedSubjects(app.dataDir, owner.did, groupDid, 2000, { status: (i) => (i % 4 ? 'open' : 'escalated') })
    const pages = await watchListPages(app, 'groups.subjects')
    await openSection(page, 'Moderation')
    await expect(page.getByRole('radio', { name: 'All (2,000)' })).toBeVisible()
    await expect(page.getByRole('radio', { name: 'Escalated (500)' })).toBeVisible()
    const rows = page.getByTestId('subjects-list').locator('li')
    expect(await rows.count()).toBeLessThan(60)
    await pages.expectOnlyRowsInView()
    // Most recently active first: the last one seeded.
    await expect(rows.first()).toHaveAttribute('data-testid', 'subject-did:plc:spam001999xxxxxxxxxxxxxx')
    await page.getByTestId('subjects-viewport').evaluate((el) => (el.scrollTop = el.scrollHeight))
    await expect(page.getByTestId('subject-did:plc:spam000000xxxxxxxxxxxxxx')).toBeVisible()
    await page.getByRole('radio', { name: 'Escalated (500)' }).check()
    await expect(rows.first()).toHaveAttribute('aria-setsize', '500')
    await page.getByLabel('Search reports').fill('spam00123')
    // 1230-1239, of which 1232 and 1236 are escalated.
    await expect(rows).toHaveCount(2)
    await page.screenshot({ path: testInfo.outputPath('moderation-thousands.png'), fullPage: true })
  })
})
