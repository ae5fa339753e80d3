import type { Page } from '@playwright/test'
import { test, expect, saveDownload, signInThroughPds } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { axeViolations } from './support/axe.js'
import { takeHostDown } from './support/stack-control.js'
import { syncNow } from './support/start-group.js'

// A zone with a half-hour offset and no summer time: local 19:00 is 13:30 UTC all year.
const ZONE = 'Asia/Kolkata'
test.use({ timezoneId: ZONE, locale: 'en-GB' })

/** A day some days from now, as `YYYY-MM-DD` in the browser's zone. */
const dayInZone = (daysFromNow: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(Date.now() + daysFromNow * 86_400_000))

/** Starts a group of the test's own from the app ("Start a new group") and opens its calendar. */
async function startGroupAndOpenCalendar(page: Page, prefix: string, name: string) {
  const handle = `${prefix}${Date.now().toString(36)}.groups.test`
  await page.getByLabel('Handle', { exact: true }).fill(handle)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Anyone, at once').check()
  await page.getByRole('button', { name: 'Start group' }).click()
  await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 20_000 }) // made on the host and first read, as startGroup waits
  await page.getByRole('navigation', { name: 'Group sections' }).getByRole('link', { name: 'Calendar' }).click()
  await expect(page.getByRole('button', { name: 'Agenda' })).toHaveAttribute('aria-pressed', 'true')
  const groupDid = decodeURIComponent(/\/g\/[^/]+\/([^/?]+)/.exec(page.url())![1]!)
  return { handle, groupDid }
}

async function addEvent(page: Page, fields: { name: string; date: string; start: string; end?: string; location?: string; description?: string }) {
  await page.getByRole('button', { name: 'New event' }).click()
  const form = page.getByRole('dialog', { name: 'New event' })
  await form.getByLabel('Name').fill(fields.name)
  await form.getByLabel('Start date').fill(fields.date)
  await form.getByLabel('Start time').fill(fields.start)
  if (fields.end) await form.getByLabel('End time').fill(fields.end)
  if (fields.location) {
    await form.getByRole('button', { name: 'Add an address' }).click()
    await form.getByLabel('Place name').fill(fields.location)
    await form.getByLabel('Country code').fill('GB')
  }
  if (fields.description) await form.getByLabel('Description').fill(fields.description)
  await form.getByRole('button', { name: 'Add event' }).click()
  await expect(form).toBeHidden()
}

test.describe('calendar', () => {
  test('an organizer adds an event, sees it in both views, edits it, answers, exports .ics and deletes it', async ({ page, app, signedIn: _owner }, testInfo) => {
    test.setTimeout(120_000)
    await startGroupAndOpenCalendar(page, 'cal', 'Calendar club')
    await expect(page.getByTestId('agenda-empty')).toBeVisible()

    // The form says plainly when the end is before the start, and will not save it.
    const day = dayInZone(3)
    await page.getByRole('button', { name: 'New event' }).click()
    const form = page.getByRole('dialog', { name: 'New event' })
    await expect(form.getByLabel('Name')).toBeFocused()
    await form.getByLabel('Name').fill('Book club')
    await form.getByLabel('Start date').fill(day)
    await form.getByLabel('Start time').fill('19:00')
    await form.getByLabel('End date').fill(day)
    await form.getByLabel('End time').fill('18:00')
    await expect(form.getByTestId('event-end-error')).toHaveText(/An event cannot end before it starts/)
    await expect(form.getByLabel('End time')).toHaveAttribute('aria-invalid', 'true')
    await expect(form.getByRole('button', { name: 'Add event' })).toBeDisabled()
    await page.screenshot({ path: testInfo.outputPath('calendar-form-error.png'), fullPage: true })
    await form.getByLabel('End time').fill('21:30')
    await expect(form.getByTestId('event-end-error')).toHaveCount(0)
    // A place (the published lexicon's address: the country is asked for), how people come, and a link.
    await form.getByLabel('How people come').selectOption({ label: 'In person and online' })
    await form.getByRole('button', { name: 'Add an address' }).click()
    await expect(form.getByLabel('Place name')).toBeFocused()
    await form.getByLabel('Place name').fill('Room 4, Library; upstairs')
    await form.getByRole('button', { name: 'Add a link' }).click()
    await form.getByLabel('Address on the web').fill('https://books.example/club')
    await form.getByLabel('Name (optional, such as “Tickets”)').fill('Reading list')
    await form.getByRole('button', { name: 'Add event' }).click()
    await expect(form.getByLabel('Country code')).toBeFocused()
    await expect(form.getByLabel('Country code')).toHaveAttribute('aria-invalid', 'true')
    // The places and links, with an error showing, pass axe in the open dialog.
    expect(await axeViolations(page, { include: 'dialog[open]' })).toEqual([])
    await form.getByLabel('Country code').fill('GB')
    await form.getByLabel('Description').fill('Bring the book.\nTea provided.')
    await form.getByRole('button', { name: 'Add event' }).click()
    await expect(form).toBeHidden()

    // Agenda: under its day, sent and stored by the group host.
    const agendaDay = page.getByTestId(`agenda-${day}`)
    const card = agendaDay.getByRole('article', { name: 'Book club' })
    await expect(card).toContainText('19:00 – 21:30')
    await expect(card.getByTestId('event-places')).toHaveText('Address: Room 4, Library; upstairs, GB')
    await expect(card.getByTestId('event-mode')).toHaveText('In person and online')
    await expect(card.getByTestId('event-links')).toHaveText('Reading list: https://books.example/club')
    await expect(card).not.toContainText('Sending', { timeout: 20_000 })

    // Month: the event is on its day, today is marked, and the grid works from the keyboard.
    await page.getByRole('button', { name: 'Month' }).click()
    const today = dayInZone(0)
    const todayCell = page.getByTestId(`day-${today}`)
    await expect(todayCell).toHaveAttribute('aria-current', 'date')
    await expect(page.getByRole('grid')).toBeVisible()
    await todayCell.focus()
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight')
    const eventCell = page.getByTestId(`day-${day}`)
    await expect(eventCell).toBeFocused()
    await expect(eventCell).toContainText('Book club')
    await expect(eventCell).toHaveAccessibleName(/1 event: Book club/)
    await expect(page.getByTestId('day-detail').getByRole('article', { name: 'Book club' })).toBeVisible()
    // Next month and back by buttons, then Page Down / Page Up by keyboard.
    const title = page.locator('#cal-month-title')
    const monthName = await title.textContent()
    await page.getByRole('button', { name: 'Next month' }).click()
    await expect(title).not.toHaveText(monthName!)
    await page.getByRole('button', { name: 'Previous month' }).click()
    await expect(title).toHaveText(monthName!)
    await eventCell.focus()
    await page.keyboard.press('PageDown')
    await expect(title).not.toHaveText(monthName!)
    await page.keyboard.press('PageUp')
    await expect(title).toHaveText(monthName!)
    // With Shift, a year at a time (as the shortcuts dialog says).
    await page.keyboard.press('Shift+PageDown')
    await expect(title).toHaveText(monthName!.replace(/\d{4}/, (year) => String(Number(year) + 1)))
    await page.keyboard.press('Shift+PageUp')
    await expect(title).toHaveText(monthName!)
    await expect(eventCell).toBeFocused()
    await page.screenshot({ path: testInfo.outputPath('calendar-month.png'), fullPage: true })

    // Edit: the form opens filled in, in local time.
    await page.getByRole('button', { name: 'Agenda' }).click()
    await card.getByRole('button', { name: 'Edit Book club' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit “Book club”' })
    await expect(edit.getByLabel('Start time')).toHaveValue('19:00')
    await expect(edit.getByLabel('End time')).toHaveValue('21:30')
    await edit.getByLabel('Name', { exact: true }).fill('Book club: Middlemarch')
    await edit.getByRole('button', { name: 'Save changes' }).click()
    await expect(edit).toBeHidden()
    const edited = agendaDay.getByRole('article', { name: 'Book club: Middlemarch' })
    await expect(edited).toBeVisible()
    await expect(edited).not.toContainText('Sending', { timeout: 20_000 })

    // RSVP as yourself: the answer shows, and a second answer replaces it.
    await expect(edited.getByTestId('my-rsvp')).toHaveText('You have not answered')
    await edited.getByRole('button', { name: 'Going to Book club: Middlemarch', exact: true }).click()
    await expect(edited.getByRole('button', { name: 'Going to Book club: Middlemarch', exact: true })).toHaveAttribute('aria-pressed', 'true')
    await expect(edited.getByTestId('my-rsvp')).toHaveText('Your answer: Going')
    await expect(edited).not.toContainText('Sending', { timeout: 20_000 })
    await edited.getByRole('button', { name: 'Interested in Book club: Middlemarch' }).click()
    await expect(edited.getByTestId('my-rsvp')).toHaveText('Your answer: Interested')
    await expect(edited.getByRole('button', { name: 'Going to Book club: Middlemarch', exact: true })).toHaveAttribute('aria-pressed', 'false')
    await expect(edited).not.toContainText('Sending', { timeout: 20_000 })
    // Read back from the member's own PDS after a sync: still the second answer.
    await page.getByRole('button', { name: 'Sync now' }).click()
    await expect(page.getByRole('button', { name: 'Sync now' })).toBeEnabled()
    await expect(edited.getByTestId('my-rsvp')).toHaveText('Your answer: Interested')
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date')
    await page.screenshot({ path: testInfo.outputPath('calendar-agenda.png'), fullPage: true })

    // Postponing and cancelling change the status (issue 27): the event stays, labelled, then struck through.
    await edited.getByRole('button', { name: 'Postpone Book club: Middlemarch' }).click()
    await expect(edited.getByTestId('event-status')).toHaveText('Postponed')
    await expect(edited.getByTestId('event-name')).toHaveCSS('text-decoration-line', 'none')
    await expect(edited.getByRole('link', { name: 'Door mode for Book club: Middlemarch' })).toBeVisible()
    await expect(edited).not.toContainText('Sending', { timeout: 20_000 })
    await edited.getByRole('button', { name: 'Cancel event Book club: Middlemarch' }).click()
    // Asked first, in words saying what it does; the organizer may post as the group, so announcing is offered.
    const asked = page.getByRole('alertdialog', { name: 'Cancel “Book club: Middlemarch”?' })
    await expect(asked).toContainText('takes no more answers')
    await expect(asked.getByRole('checkbox', { name: /announce the cancellation as the group/ })).not.toBeChecked()
    await asked.getByRole('button', { name: 'Cancel the event' }).click()
    await expect(asked).toBeHidden()
    await expect(edited.getByTestId('event-status')).toHaveText('Cancelled')
    await expect(edited.getByTestId('event-name')).toHaveCSS('text-decoration-line', 'line-through')
    // Cancelled: no answers taken and no door, said in words.
    await expect(edited.getByRole('group', { name: 'Your answer for Book club: Middlemarch' })).toHaveCount(0)
    await expect(edited.getByTestId('my-rsvp')).toHaveText(/^Cancelled: no answers are taken/)
    await expect(edited.getByRole('link', { name: 'Door mode for Book club: Middlemarch' })).toHaveCount(0)
    await expect(edited).not.toContainText('Sending', { timeout: 20_000 })
    // Read back from the host: still cancelled, its place and link kept.
    await page.getByRole('button', { name: 'Sync now' }).click()
    await expect(page.getByRole('button', { name: 'Sync now' })).toBeEnabled()
    await expect(edited.getByTestId('event-status')).toHaveText('Cancelled')
    await expect(edited.getByTestId('event-places')).toHaveText('Address: Room 4, Library; upstairs, GB')
    await expect(edited.getByTestId('event-links')).toHaveText('Reading list: https://books.example/club')
    await expect(edited.getByRole('button', { name: 'Restore Book club: Middlemarch' })).toBeVisible()
    await page.screenshot({ path: testInfo.outputPath('calendar-cancelled.png'), fullPage: true })

    // Export: a real download of an RFC 5545 file.
    const { fileName, text: ics } = await saveDownload(page, app, () => page.getByRole('button', { name: 'Export .ics' }).click())
    expect(fileName).toMatch(/\.ics$/)
    const compact = day.replaceAll('-', '')
    const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n')
    expect(lines[0]).toBe('BEGIN:VCALENDAR')
    expect(lines).toContain('VERSION:2.0')
    expect(lines.some((l) => l.startsWith('PRODID:'))).toBe(true)
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1)
    expect(lines).toContain('SUMMARY:Book club: Middlemarch')
    expect(lines).toContain(`DTSTART:${compact}T133000Z`)
    expect(lines).toContain(`DTEND:${compact}T160000Z`)
    expect(lines).toContain('LOCATION:Room 4\\, Library\\; upstairs\\, GB')
    expect(lines).toContain('STATUS:CANCELLED')
    expect(lines).toContain('URL:https://books.example/club')
    expect(lines).toContain('DESCRIPTION:Bring the book.\\nTea provided.')
    expect(lines.find((l) => l.startsWith('UID:'))).toMatch(/^UID:at:\/\/did:plc:.+\/community\.lexicon\.calendar\.event\//)
    expect(lines.some((l) => l.startsWith('DTSTAMP:'))).toBe(true)
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)

    // Delete, after confirming; keeping it first changes nothing.
    await edited.getByRole('button', { name: 'Delete Book club: Middlemarch' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete “Book club: Middlemarch”?' })
    await expect(confirm).toBeVisible()
    await confirm.getByRole('button', { name: 'Keep it' }).click()
    await expect(confirm).toBeHidden()
    await expect(edited).toBeVisible()
    await edited.getByRole('button', { name: 'Delete Book club: Middlemarch' }).click()
    await confirm.getByRole('button', { name: 'Delete event' }).click()
    await expect(edited).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('agenda-empty')).toBeVisible()
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date')
  })

  test('a weekly series made offline is sent once the host is back; one date moved, the later ones renamed, the .ics carrying the rule', async ({ page, app, signedIn: _owner }) => {
    test.setTimeout(120_000)
    await startGroupAndOpenCalendar(page, 'series', 'Chess club')
    const first = dayInZone(2)
    const bringBack = await takeHostDown()
    try {
      await page.getByRole('button', { name: 'New event' }).click()
      const form = page.getByRole('dialog', { name: 'New event' })
      await form.getByLabel('Name').fill('Chess night')
      await form.getByLabel('Start date').fill(first)
      await form.getByLabel('Start time').fill('19:00')
      await form.getByLabel('End time').fill('21:00')
      const weekday = new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${first}T12:00:00Z`))
      await form.getByLabel('Repeats').selectOption({ label: `Every week on ${weekday}` })
      await form.getByLabel('How many times').fill('4')
      await form.getByRole('button', { name: 'Add 4 events' }).click()
      await expect(form).toBeHidden()
      // Shown at once from the cache, each date an event of its own, waiting to be sent.
      const cards = page.getByRole('article', { name: 'Chess night' })
      await expect(cards).toHaveCount(4)
      await expect(cards.getByText('Sending…')).toHaveCount(4)
      await expect(cards.first().getByTestId('event-series')).toHaveText('Every week · 1 of 4')
      await expect(page.getByTestId('connection-state')).toHaveText('Offline · 4 waiting', { timeout: 15_000 })
    } finally {
      await bringBack()
    }
    await syncNow(page)
    const cards = page.getByRole('article', { name: 'Chess night' })
    await expect(cards.getByText('Sending…')).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date', { timeout: 20_000 })

    // The second date moves a day later, alone: it keeps its place in the series.
    const second = cards.nth(1)
    const secondDay = new Date(`${first}T12:00:00Z`)
    secondDay.setUTCDate(secondDay.getUTCDate() + 8)
    const movedTo = secondDay.toISOString().slice(0, 10)
    await second.getByRole('button', { name: 'Edit Chess night' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit “Chess night”' })
    await expect(edit.getByRole('group', { name: 'Change' })).toBeVisible()
    await edit.getByLabel('This event only').check()
    await edit.getByLabel('Start date').fill(movedTo)
    await edit.getByLabel('End date').fill(movedTo)
    await edit.getByRole('button', { name: 'Save changes' }).click()
    await expect(edit).toBeHidden()
    await expect(page.getByTestId(`agenda-${movedTo}`).getByRole('article', { name: 'Chess night' }).getByTestId('event-series')).toHaveText('Every week · 2 of 4')

    // The third and the one after it are renamed together.
    await cards.nth(2).getByRole('button', { name: 'Edit Chess night' }).click()
    const rename = page.getByRole('dialog', { name: 'Edit “Chess night”' })
    await rename.getByLabel('This and the 1 following event').check()
    await rename.getByLabel('Name').fill('Chess and tea')
    await rename.getByRole('button', { name: 'Save changes' }).click()
    await expect(rename).toBeHidden()
    await expect(page.getByRole('article', { name: 'Chess and tea' })).toHaveCount(2)
    await expect(page.getByRole('article', { name: 'Chess and tea' }).getByText('Sending…')).toHaveCount(0, { timeout: 20_000 })

    const { text: ics } = await saveDownload(page, app, () => page.getByRole('button', { name: 'Export .ics' }).click())
    const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n')
    expect(lines).toContain('RRULE:FREQ=WEEKLY;COUNT=4')
    // The zone as the browser names it (Chromium says Asia/Calcutta, IANA's older name for the same zone), defined beside its use.
    const zone = lines.find((l) => l.startsWith('TZID:'))!.slice('TZID:'.length)
    expect([ZONE, 'Asia/Calcutta']).toContain(zone)
    expect(lines).toContain(`DTSTART;TZID=${zone}:${first.replaceAll('-', '')}T190000`)
    // One master and three exceptions (the moved date, the two renamed): one VEVENT per date another app would otherwise duplicate.
    expect(lines.filter((l) => l.startsWith('RECURRENCE-ID;TZID='))).toHaveLength(3)
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(4)
  })

  test('a member sees the calendar read-only and answers for themselves', async ({ page, app, signedIn: _owner }, testInfo) => {
    test.setTimeout(120_000)
    const member = app.stack.accounts.find((a) => a.name === 'member')!
    const { handle, groupDid } = await startGroupAndOpenCalendar(page, 'calm', 'Calendar members')
    await addEvent(page, { name: 'Welcome evening', date: dayInZone(2), start: '18:30' })
    await expect(page.getByRole('article', { name: 'Welcome evening' })).not.toContainText('Sending', { timeout: 20_000 })

    // The member joins the open group elsewhere, then signs in to this app too.
    const peer = await asPeer(app.stack, 'member')
    expect((await peer.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    await page.getByRole('link', { name: 'Accounts' }).click()
    await signInThroughPds(page, member.handle, member.password)
    await expect(page.getByRole('heading', { name: 'Your groups' })).toBeVisible()
    await page.getByLabel('Account').selectOption({ label: `@${member.handle}` })
    await page.getByLabel('Group handle or DID').fill(handle)
    await page.getByRole('button', { name: 'Add group' }).click()
    await expect(page.getByRole('heading', { name: 'Calendar members' })).toBeVisible()
    await expect(page.getByText('You are member')).toBeVisible()
    await page.getByRole('navigation', { name: 'Group sections' }).getByRole('link', { name: 'Calendar' }).click()

    const event = page.getByRole('article', { name: 'Welcome evening' })
    await expect(event).toContainText('18:30')
    await expect(page.getByTestId('calendar-read-only')).toContainText('Owners and admins add and change events')
    await expect(page.getByRole('button', { name: 'New event' })).toHaveCount(0)
    await expect(event.getByRole('button', { name: /^(Edit|Delete) / })).toHaveCount(0)

    // An RSVP is the member's own record on their own PDS: that they may write.
    await event.getByRole('button', { name: 'Going to Welcome evening', exact: true }).click()
    await expect(event.getByTestId('my-rsvp')).toHaveText('Your answer: Going')
    await expect(event).not.toContainText('Sending', { timeout: 20_000 })
    await page.getByRole('button', { name: 'Month' }).click()
    await expect(page.getByRole('button', { name: 'New event' })).toHaveCount(0)
    await expect(page.getByTestId(`day-${dayInZone(2)}`)).toContainText('Welcome evening')
    await page.getByRole('button', { name: 'Agenda' }).click()
    await page.screenshot({ path: testInfo.outputPath('calendar-member.png'), fullPage: true })
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date')
    // Dark follows the system.
    const background = () => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor')
    const lightness = (rgb: string) => rgb.match(/\d+/g)!.slice(0, 3).reduce((sum, n) => sum + Number(n), 0) / 3
    await page.emulateMedia({ colorScheme: 'light' })
    expect(lightness(await background())).toBeGreaterThan(200)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(lightness(await background())).toBeLessThan(60)
    await page.getByRole('button', { name: 'Month' }).click()
    await page.screenshot({ path: testInfo.outputPath('calendar-member-month-dark.png'), fullPage: true })
  })
})
