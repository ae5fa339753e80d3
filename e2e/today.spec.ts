import type { Page } from '@playwright/test'
import { test, expect, openSignedIn, signInThroughPds } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { axeViolations } from './support/axe.js'

/** The number the window's title leads with: "(12) Today · Convene". */
async function titleCount(page: Page): Promise<number> {
  const title = await page.title()
  const m = /^\((\d[\d,]*)\) Today · Convene$/.exec(title)
  expect(m, `the title should lead with the count of what waits: ${title}`).not.toBeNull()
  return Number(m![1]!.replace(/,/g, ''))
}

/** Presses j (then k, from the end) until the row with this test id has focus: keyboard only. */
async function focusItem(page: Page, testid: string) {
  const focused = () => page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? ''")
  for (const key of ['j', 'k']) {
    for (let i = 0; i < 60; i++) {
      if ((await focused()) === testid) return
      const before = await focused()
      await page.keyboard.press(key)
      if ((await focused()) === before) break // at the end of the list: go back the other way
    }
  }
  expect(await focused()).toBe(testid)
}

test.describe('Today', () => {
  test('across two accounts and three groups: sees what waits in each, admits one and resolves one from the keyboard, and the title count drops', async ({ page, app }, testInfo) => {
    const tag = Date.now().toString(36)
    // Three groups of this test's own: two run by the owner, one by the admin (whom the owner's account does not reach).
    const ownerPeer = await asPeer(app.stack, 'owner')
    const adminPeer = await asPeer(app.stack, 'admin')
    const made = async (peer: typeof ownerPeer, handle: string, displayName: string, joinPolicy: 'open' | 'approval') => {
      const res = await peer.call('example.groups.createGroup', { handle: `${handle}${tag}.groups.test`, displayName, joinPolicy })
      expect(res.status).toBe(200)
      return res.body.did as string
    }
    const walkers = await made(ownerPeer, 'todaywalk', 'Today walkers', 'approval')
    const readers = await made(ownerPeer, 'todayread', 'Today readers', 'open')
    const cooks = await made(adminPeer, 'todaycook', 'Today cooks', 'approval')
    const outsider = await asPeer(app.stack, 'outsider')
    const outsider2 = await asPeer(app.stack, 'outsider2')
    const member = await asPeer(app.stack, 'member')
    expect((await outsider.call('example.groups.requestJoin', { group: walkers, message: 'From the hike' })).body.status).toBe('pending')
    expect((await outsider2.call('example.groups.requestJoin', { group: cooks })).body.status).toBe('pending')
    expect((await member.call('example.groups.requestJoin', { group: readers })).body.status).toBe('admitted')
    const report = await member.call('example.groups.createReport', { group: readers, subject: { $type: 'example.groups.defs#subjectAccount', did: outsider2.did }, reasonType: 'spam', reason: 'Sells shoes' })
    expect(report.status).toBe(200)

    // Two accounts signed in; each finds its groups on the host.
    await openSignedIn(page, app, 'owner')
    const admin = app.stack.accounts.find((a) => a.name === 'admin')!
    await page.getByRole('link', { name: 'Accounts' }).click()
    await signInThroughPds(page, admin.handle, admin.password)
    const switcher = page.getByRole('navigation', { name: 'Your groups' })
    for (const name of ['Today walkers', 'Today readers', 'Today cooks']) await expect(switcher.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible({ timeout: 20_000 })

    // g then d: Today, with the first item focused.
    await page.locator('body').press('g')
    await page.locator('body').press('d')
    await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible()
    const asking = page.getByTestId(`today-joinRequest-${walkers}-${outsider.did}`)
    const reported = page.getByTestId(`today-report-${readers}-${outsider2.did}`)
    const cooking = page.getByTestId(`today-joinRequest-${cooks}-${outsider2.did}`)
    await expect(asking).toContainText('Today walkers')
    await expect(asking).toContainText('From the hike')
    await expect(reported).toContainText('Today readers')
    await expect(reported).toContainText('Sells shoes')
    await expect(cooking).toContainText('Today cooks')
    await expect(page.getByRole('list', { name: 'What waits for you' }).locator('li:focus')).toHaveCount(1)
    // The sidebar's first entry says how much waits, as the title does.
    const before = await titleCount(page)
    expect(before).toBeGreaterThanOrEqual(3)
    await expect(page.getByTestId('today-link')).toContainText(String(before))
    await page.screenshot({ path: testInfo.outputPath('today.png'), fullPage: true })
    // Both colour schemes pass axe (WCAG 2.1 AA), as every screen does (accessibility.spec.ts).
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      expect(await axeViolations(page), scheme).toEqual([])
    }

    // Admit the walker (a), held for Undo meanwhile: the count drops at once.
    await focusItem(page, `today-joinRequest-${walkers}-${outsider.did}`)
    await page.keyboard.press('a')
    await expect(page.getByTestId('toasts')).toContainText(/Admitted .* to Today walkers/)
    await expect(page).toHaveTitle(`(${before - 1}) Today · Convene`)
    // Resolve the report (r), focus still in the list.
    await focusItem(page, `today-report-${readers}-${outsider2.did}`)
    await page.keyboard.press('r')
    await expect(page).toHaveTitle(`(${before - 2}) Today · Convene`)
    await expect(page.getByRole('list', { name: 'What waits for you' }).locator('li:focus')).toHaveCount(1)

    // Once sent and confirmed, both leave the list; the cooks' request still waits, as the admin's to decide.
    await expect(asking).toHaveCount(0, { timeout: 30_000 })
    await expect(reported).toHaveCount(0, { timeout: 30_000 })
    await expect(cooking).toBeVisible()
    // The focused item went: focus stays in the list, on the one in its place, not lost to the page.
    await expect(page.getByRole('list', { name: 'What waits for you' }).locator('li:focus')).toHaveCount(1)
    await expect(cooking.getByRole('button', { name: /^Admit / })).toBeVisible()
    const members = await ownerPeer.query('example.groups.listMembers', { group: walkers })
    expect(JSON.stringify(members.body)).toContain(outsider.did)

    // Shift+A: admit and go on, as the admin (the other account): the count drops again, focus stays in the list.
    await focusItem(page, `today-joinRequest-${cooks}-${outsider2.did}`)
    await page.keyboard.press('Shift+A')
    await expect(page).toHaveTitle(before - 3 ? `(${before - 3}) Today · Convene` : 'Today · Convene')
    await expect(page.getByRole('list', { name: 'What waits for you' }).locator('li:focus')).toHaveCount(1)
    await expect(cooking).toHaveCount(0, { timeout: 30_000 })
    // Focus is still somewhere sensible: on an item, or, the list emptied, on the words saying so.
    await expect(page.locator('[data-testid="today-list"] li:focus, [data-testid="today-empty"]:focus')).toHaveCount(1)
    expect(JSON.stringify((await adminPeer.query('example.groups.listMembers', { group: cooks })).body)).toContain(outsider2.did)
  })
})
