import type { Page } from '@playwright/test'
import { test, expect } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { openSection, startGroup, syncNow } from './support/start-group.js'
import { axeViolations } from './support/axe.js'

const SPAM = 'com.atproto.moderation.defs#reasonSpam'
const EVENT = 'community.lexicon.calendar.event'

async function addEvent(page: Page, name: string, date: string) {
  await page.getByRole('button', { name: 'New event' }).click()
  const form = page.getByRole('dialog', { name: 'New event' })
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('Start date').fill(date)
  await form.getByLabel('Start time').fill('18:00')
  await form.getByRole('button', { name: 'Add event' }).click()
  await expect(form).toBeHidden()
}

test.describe('moderation subject pane', () => {
  test('a member reports an event as spam; the moderator reads the report in the pane and takes the event down and back, from the keyboard', async ({ page, app, signedIn: _owner }, testInfo) => {
    test.setTimeout(180_000)
    const { groupDid } = await startGroup(page, { prefix: 'modpane', name: 'Watch collectors', policy: 'open', section: 'Calendar' })
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)
    await addEvent(page, 'Cheap watches, cash only', day)
    await addEvent(page, 'Swap meet', day)
    // The Report button shows once the host has the event (it has an address).
    await expect(page.getByRole('button', { name: 'Report Swap meet' })).toBeVisible({ timeout: 20_000 })

    // A member of the group finds the event in the calendar the host serves them, and reports it.
    const member = await asPeer(app.stack, 'member')
    expect((await member.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    const space = `at://${groupDid}/space/community.lexicon.calendar/self`
    const calendarOfMember = async () =>
      ((await member.query('com.atproto.space.listRecords', { space, repo: groupDid, collection: EVENT })).body.records as { uri: string; value: { name: string } }[]).map(
        (r) => r.value.name,
      )
    await expect.poll(calendarOfMember, { timeout: 20_000 }).toContain('Cheap watches, cash only')
    const records = (await member.query('com.atproto.space.listRecords', { space, repo: groupDid, collection: EVENT })).body.records as { uri: string; value: { name: string } }[]
    const spam = records.find((r) => r.value.name === 'Cheap watches, cash only')!.uri
    const sentence = 'This is an advert for a shop, not a meet-up.'
    const report = await member.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectRecord', uri: spam }, reasonType: SPAM, reason: sentence })
    expect(report.status).toBe(200)

    // People can report from the app too: the organizer reports the other event, as any member could.
    await page.getByRole('button', { name: 'Report Swap meet' }).click()
    const dialog = page.getByRole('form', { name: 'Report Swap meet' })
    await dialog.getByLabel('Misleading').check()
    await dialog.getByLabel('In your words (optional)').fill('The date is wrong.')
    expect(await axeViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Send report' }).click()
    await expect(page.getByTestId('toasts')).toContainText('Your report about “Swap meet” is on its way to the moderators.')

    // And a member, from the member list.
    await openSection(page, 'Members')
    await syncNow(page)
    const { displayName: memberName, handle: memberHandle } = app.stack.accounts.find((a) => a.name === 'member')!
    await expect(page.getByTestId(`member-${member.did}`)).toContainText(memberName, { timeout: 20_000 })
    await page.getByRole('button', { name: new RegExp(`^Report ${member.did}`) }).click()
    // The dialog names them by their profile's name and handle, not their DID.
    const aboutMember = page.getByRole('form', { name: `Report ${memberName} (@${memberHandle})` })
    await aboutMember.getByLabel('Rude').check()
    await aboutMember.getByLabel('In your words (optional)').fill('Mocked a newcomer.')
    await aboutMember.getByRole('button', { name: 'Send report' }).click()
    // Named as the dialog named them (or, before they are looked up, by the start of the DID).
    await expect(page.getByTestId('toast').filter({ hasText: `Your report about ${memberName} (@${memberHandle}) is on its way to the moderators.` })).toBeVisible()

    // The moderator (the organizer here) sees the reason and the sentence on the row.
    await openSection(page, 'Moderation')
    await syncNow(page)
    await expect(page.getByTestId(`subject-${member.did}`).getByTestId('subject-words')).toHaveText('Mocked a newcomer.', { timeout: 20_000 })
    const row = page.getByTestId(`subject-${spam}`)
    await expect(row.getByTestId('subject-reasons')).toHaveText('Spam', { timeout: 20_000 })
    await expect(row.getByTestId('subject-words')).toHaveText(sentence)
    await expect(page.locator('[data-testid^="subject-"] [data-testid="subject-reasons"]', { hasText: 'Misleading' })).toBeVisible({ timeout: 20_000 })
    // Filtered by reason, only the spam is left.
    await page.getByTestId('filter-reason').selectOption({ label: 'Spam' })
    await expect(page.getByTestId('subjects-list').locator('li')).toHaveCount(1)
    await page.getByTestId('filter-reason').selectOption({ label: 'Any' })
    await page.screenshot({ path: testInfo.outputPath('moderation-rows.png'), fullPage: true })

    // From the keyboard: Ctrl-K, find the event by its address, Enter opens the pane.
    await page.keyboard.press('Control+k')
    const palette = page.getByRole('dialog', { name: 'Jump to a report or act on it' })
    await expect(palette.getByRole('combobox')).toBeFocused()
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.type(spam.split('/').pop()!)
    await expect(palette.getByRole('option', { name: /^Open: / })).toHaveCount(1)
    await page.keyboard.press('Enter')

    const pane = page.getByTestId('subject-pane')
    await expect(pane.getByTestId('pane-event-name')).toHaveText('Cheap watches, cash only')
    await expect(pane.getByTestId('pane-reports')).toContainText('Spam')
    await expect(pane.getByTestId('pane-reports')).toContainText(sentence)
    await expect(pane.getByTestId('pane-reports')).toContainText(`${memberName} (@${memberHandle})`)
    await expect(pane.getByTestId('pane-history')).toContainText('Reported')
    await expect(pane.getByTestId('subject-pane-body')).toBeFocused()
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: testInfo.outputPath('moderation-pane.png'), fullPage: true })

    // t takes it down once asked twice: gone from the member's calendar, the history says so.
    await page.keyboard.press('t')
    await expect(pane.getByTestId('pane-takedown')).toHaveText('Confirm: Take down')
    await expect(pane.getByTestId('pane-sent')).toContainText('again to confirm')
    await page.keyboard.press('t')
    await expect(pane.getByTestId('pane-takedown')).toHaveText('Restore')
    await expect.poll(calendarOfMember, { timeout: 20_000 }).toEqual(['Swap meet'])
    await expect(pane.getByTestId('pane-history')).toContainText('Taken down', { timeout: 20_000 })
    // The moderator's own reading still has it, marked.
    await expect(pane.getByTestId('pane-taken-down')).toBeVisible()

    // t again restores it.
    await pane.getByTestId('subject-pane-body').focus()
    await page.keyboard.press('t')
    await expect(pane.getByTestId('pane-takedown')).toHaveText('Take down')
    await expect.poll(async () => (await calendarOfMember()).sort(), { timeout: 20_000 }).toEqual(['Cheap watches, cash only', 'Swap meet'])
    await expect(pane.getByTestId('pane-history')).toContainText('Restored', { timeout: 20_000 })
    await page.keyboard.press('Escape')
    await expect(pane).toBeHidden()

    // The takedown resolved it, so it left the queue; the Resolved filter finds it on the host, and o reopens it.
    await page.getByRole('radio', { name: 'Resolved' }).check()
    const resolvedRow = page.getByTestId(`resolved-${spam}`)
    await expect(resolvedRow).toBeVisible({ timeout: 20_000 })
    await resolvedRow.getByRole('button', { name: /^Review the report about / }).click()
    await expect(pane.getByTestId('pane-reopen')).toBeVisible()
    await pane.getByTestId('subject-pane-body').focus()
    await page.keyboard.press('o')
    // Said in the window's toast, shown inside the pane while it is open (outside a modal is inert).
    await expect(pane.getByTestId('toasts')).toContainText('Reopened the report about')
    await expect(pane.getByTestId('pane-history')).toContainText('Status set', { timeout: 20_000 })
    await page.keyboard.press('Escape')
    await expect(resolvedRow).toBeHidden({ timeout: 20_000 })
    await page.getByRole('radio', { name: /^Open \(/ }).check()
    await syncNow(page)
    await expect(page.getByTestId(`subject-${spam}`).getByTestId('subject-status')).toHaveText('Open', { timeout: 20_000 })
  })
})
