import type { Page } from '@playwright/test'
import { test, expect, openSignedIn } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { addEvent, startGroup, syncNow } from './support/start-group.js'
import { MemberPds } from '../test/support/member-pds.js'
import { LIVE_WITHIN_MS } from './support/live.js'
import { fullBrowserPath, TEST_BROWSER_ARGS } from '../src/dev/test-browser.js'

type Shown = { title: string; body: string; shown: { onclick: (() => void) | null } }
type Recorded = { shownNotifications: Shown[] }
const titles = () => (globalThis as unknown as Recorded).shownNotifications.map((n) => `${n.title} | ${n.body}`)

// In full Chromium: the headless shell denies the Notification permission outright (src/dev/test-browser.ts).
test.use({ launchOptions: { executablePath: fullBrowserPath(), args: TEST_BROWSER_ARGS } })

/** Records the notifications the page raises (the browser's own UI is not visible headless). */
async function recordNotifications(page: Page) {
  await page.addInitScript(() => {
    type Ctor = new (title: string, options?: { body?: string }) => { onclick: (() => void) | null }
    const g = globalThis as unknown as { Notification: Ctor; shownNotifications: unknown[] }
    const shown: unknown[] = []
    g.shownNotifications = shown
    const Real = g.Notification
    g.Notification = class extends Real {
      constructor(title: string, options?: { body?: string }) {
        super(title, options)
        // Its own title and body are read-only, so they are kept beside it.
        shown.push({ title, body: options?.body ?? '', shown: this })
      }
    }
    Object.assign(g.Notification, { permission: (Real as unknown as { permission: string }).permission, requestPermission: (Real as unknown as { requestPermission: () => Promise<string> }).requestPermission.bind(Real) })
  })
}

test.describe('notifications', () => {
  test('once turned on, a new join request and a new report each raise an OS notification that leads to them', async ({ page, app }) => {
    await recordNotifications(page)
    await openSignedIn(page, app, 'owner')
    const { groupDid } = await startGroup(page, { prefix: 'notify', name: 'Notify club', policy: 'approval', section: 'Members' })

    // The browser asks; Electron's permission handler allows notifications (security.ts).
    if (app.shell === 'loopback') await page.context().grantPermissions(['notifications'])
    await page.getByRole('button', { name: 'Turn on notifications' }).click()
    await expect(page.getByRole('button', { name: 'Turn on notifications' })).toHaveCount(0)
    // Raised as the live connection brings each change: nobody presses Sync now.
    await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: LIVE_WITHIN_MS })
    const syncsAsked: string[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/ipc/sync.now')) syncsAsked.push(r.url())
    })

    const outsider = await asPeer(app.stack, 'outsider2')
    expect((await outsider.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('pending')
    await expect.poll(() => page.evaluate(titles)).toContain('Notify club: someone asked to join | 1 waiting to join')

    // A member reports someone: a second notification, for the report.
    const reporter = await asPeer(app.stack, 'owner')
    const report = await reporter.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: outsider.did }, reasonType: 'spam' })
    expect(report.status).toBe(200)
    await expect.poll(() => page.evaluate(titles)).toContain('Notify club: new report | 1 open report')
    expect(syncsAsked).toEqual([])

    // Clicking it brings the window forward (Electron: even from minimized) and opens the
    // group's moderation queue, with the report in it.
    const electronApp = app.electronApp
    if (electronApp) await electronApp.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.minimize())
    const raised = app.shell === 'loopback' ? page.waitForRequest((r) => r.url().endsWith('/ipc/app.raiseWindow')) : null
    await page.evaluate(() => (globalThis as unknown as Recorded).shownNotifications.find((n) => n.title.endsWith('new report'))!.shown.onclick!())
    await raised
    if (electronApp) await expect.poll(() => electronApp.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.isMinimized())).toBe(false)
    await expect(page).toHaveURL(/\/moderation$/)
    await expect(page.getByTestId(`subject-${outsider.did}`)).toBeVisible({ timeout: 15_000 })
  })

  test('someone waiting for a place at an event is told by an OS notification when one opens for them (issue 36)', async ({ page, app }) => {
    test.setTimeout(120_000)
    await recordNotifications(page)
    await openSignedIn(page, app, 'owner')
    const { groupDid } = await startGroup(page, { prefix: 'placed', name: 'Boat club', policy: 'open', section: 'Calendar' })
    if (app.shell === 'loopback') await page.context().grantPermissions(['notifications'])
    await page.getByRole('button', { name: 'Turn on notifications' }).click()
    await addEvent(page, { name: 'Boat trip', day: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10), time: '10:00', capacity: 1 })
    const card = page.locator('article.cal-event', { hasText: 'Boat trip' })
    await expect(card.getByTestId('rsvp-counts')).toBeVisible({ timeout: 15_000 })
    const rkey = (await card.getAttribute('data-testid'))!.replace(/^event-/, '')

    // Someone else takes the one place from their own app; the person here answers going and waits.
    const space = `at://${groupDid}/space/community.lexicon.calendar/self`
    const RSVP = 'community.lexicon.calendar.rsvp'
    const pds = new MemberPds(() => app.stack)
    const peer = await asPeer(app.stack, 'member')
    expect((await peer.call('example.groups.requestJoin', { group: groupDid })).status).toBe(200)
    const event = await peer.query('com.atproto.space.getRecord', { space, repo: groupDid, collection: 'community.lexicon.calendar.event', rkey })
    const answer = (status: string) =>
      pds.put('member', { space, collection: RSVP, rkey, record: { $type: RSVP, subject: { uri: `${space}/${groupDid}/community.lexicon.calendar.event/${rkey}`, cid: (event.body as { cid: string }).cid }, status: `${RSVP}#${status}`, createdAt: new Date().toISOString() } })
    expect((await answer('going')).status).toBe(200)
    await page.getByRole('button', { name: 'Going to Boat trip', exact: true }).click()
    await expect(async () => {
      await syncNow(page)
      await expect(card.getByTestId('my-standing')).toHaveText('You’re 1st on the waitlist', { timeout: 3_000 })
    }).toPass({ timeout: 45_000 })

    // They cannot come after all: the host gives the place to the person here, who is told even with the window elsewhere.
    await page.getByTestId('today-link').click()
    expect((await answer('notgoing')).status).toBe(200)
    await expect(async () => {
      await syncNow(page)
      expect(await page.evaluate(titles)).toContainEqual(expect.stringMatching(/^You have a place at Boat trip \| A place opened and it is yours: .+ · Boat club$/))
    }).toPass({ timeout: 45_000 })
    // Said once, and not again at the next sync.
    await syncNow(page)
    expect((await page.evaluate(titles)).filter((t) => t.startsWith('You have a place'))).toHaveLength(1)
    // A click leads to the group's calendar.
    await page.evaluate(() => (globalThis as unknown as Recorded).shownNotifications.find((n) => n.title.startsWith('You have a place'))!.shown.onclick!())
    await expect(page).toHaveURL(/\/calendar/)

    // The other person waits again; the organizer here gives up the place: they get a quiet note that it went to them.
    expect((await answer('going')).status).toBe(200)
    await expect(async () => {
      await syncNow(page)
      await expect(card.getByTestId('places-count')).toHaveText('1 going · 1 waitlisted · capacity 1', { timeout: 3_000 })
    }).toPass({ timeout: 45_000 })
    await page.getByRole('button', { name: 'Not going to Boat trip', exact: true }).click()
    const handle = app.stack.accounts.find((a) => a.name === 'member')!.handle
    await expect(page.getByRole('status').filter({ hasText: `@${handle} got a place at “Boat trip” when one opened` })).toBeVisible({ timeout: 30_000 })
  })
})
