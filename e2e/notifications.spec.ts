import { test, expect, signInThroughPds } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup, syncNow } from './support/start-group.js'

test.describe('notifications', () => {
  test('once turned on, a new join request raises an OS notification', async ({ page, app }) => {
    // Record notifications the page raises (the browser's own UI is not visible headless).
    await page.addInitScript(() => {
      type Ctor = new (title: string, options?: object) => object
      const g = globalThis as unknown as { Notification: Ctor; shownNotifications: string[] }
      const shown: string[] = []
      g.shownNotifications = shown
      const Real = g.Notification
      g.Notification = class extends Real {
        constructor(title: string, options?: object) {
          super(title, options)
          shown.push(title)
        }
      }
      Object.assign(g.Notification, { permission: (Real as unknown as { permission: string }).permission, requestPermission: (Real as unknown as { requestPermission: () => Promise<string> }).requestPermission.bind(Real) })
    })
    const owner = app.stack.accounts.find((a) => a.name === 'owner')!
    await app.open(page)
    await signInThroughPds(page, owner.handle, owner.password)
    const { groupDid } = await startGroup(page, { prefix: 'notify', name: 'Notify club', policy: 'approval', section: 'Join requests' })

    // The browser asks; Electron's permission handler allows notifications (security.ts).
    if (app.shell === 'loopback') await page.context().grantPermissions(['notifications'])
    await page.getByRole('button', { name: 'Turn on notifications' }).click()
    await expect(page.getByRole('button', { name: 'Turn on notifications' })).toHaveCount(0)

    const outsider = await asPeer(app.stack, 'outsider2')
    expect((await outsider.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('pending')
    await syncNow(page)
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { shownNotifications: string[] }).shownNotifications))
      .toContain('Notify club: someone asked to join')
  })
})
