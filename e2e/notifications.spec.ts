import { test, expect, openSignedIn } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup } from './support/start-group.js'
import { LIVE_WITHIN_MS } from './support/live.js'
import { fullBrowserPath, TEST_BROWSER_ARGS } from '../src/dev/test-browser.js'

type Shown = { title: string; body: string; shown: { onclick: (() => void) | null } }
type Recorded = { shownNotifications: Shown[] }
const titles = () => (globalThis as unknown as Recorded).shownNotifications.map((n) => `${n.title} | ${n.body}`)

// In full Chromium: the headless shell denies the Notification permission outright (src/dev/test-browser.ts).
test.use({ launchOptions: { executablePath: fullBrowserPath(), args: TEST_BROWSER_ARGS } })

test.describe('notifications', () => {
  test('once turned on, a new join request and a new report each raise an OS notification that leads to them', async ({ page, app }) => {
    // Record notifications the page raises (the browser's own UI is not visible headless).
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
})
