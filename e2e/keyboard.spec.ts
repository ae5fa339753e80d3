import { test, expect } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup, syncNow } from './support/start-group.js'
import { seedCachedJoinRequests, seedCachedSubjects } from '../test/support/seed-cache.js'

// About the network's seeded demo groups, so with the seeded people (fixtures.ts, `cast`).
test.use({ cast: 'demo' })

/** A group's section in the window's address, its DID escaped or not. */
const groupPage = (did: string, section: string) => new RegExp(`/(${did}|${encodeURIComponent(did)})/${section}$`)

test.describe('keyboard', () => {
  test('an organizer works the join requests and the moderation queue from the keyboard alone', async ({ page, app, signedIn: owner }, testInfo) => {
    // The groups found after sign-in come first, so the two below are next to each other:
    // once the account shows, its search has begun; wait for it to end.
    await expect(page.getByRole('navigation', { name: 'Your groups' }).getByRole('heading', { name: `@${owner.handle}` })).toBeVisible()
    // (The search may not have started yet when the account shows: wait for what it finds.)
    await expect(page.getByRole('navigation', { name: 'Your groups' }).getByRole('link', { name: /^Approval group/ })).toBeVisible({ timeout: 60_000 })
    await expect(page.getByTestId('finding-groups')).toHaveCount(0, { timeout: 60_000 })
    const other = await startGroup(page, { prefix: 'keysa', name: 'Keys one', policy: 'approval', section: 'Members' })
    await page.getByRole('link', { name: '+ Add or start a group' }).click()
    const { groupDid } = await startGroup(page, { prefix: 'keysb', name: 'Keys two', policy: 'approval', section: 'Members' })
    // Two real requests (the newest, so last in the queue) behind 400 older ones.
    const first = await asPeer(app.stack, 'outsider')
    const asking = await asPeer(app.stack, 'outsider2')
    for (const p of [first, asking]) expect((await p.call('example.groups.requestJoin', { group: groupDid, message: 'Keyboard fan' })).body.status).toBe('pending')
    await syncNow(page)
    // Seeded after the sync, which would otherwise put the cache back to what the host has.
    await seedCachedJoinRequests(app.dataDir, owner.did, groupDid, 400)
    await page.locator('main').focus()

    // ? lists the keys; Escape puts it away.
    await page.keyboard.press('?')
    const help = page.getByTestId('shortcuts-dialog')
    await expect(help.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible()
    await expect(help.getByRole('heading', { name: 'In the calendar’s month' })).toBeVisible()
    await expect(help).toContainText('Previous or next month')
    await page.screenshot({ path: testInfo.outputPath('shortcuts.png') })
    await page.keyboard.press('Escape')
    await expect(help).toHaveCount(0)

    // g r: the join requests; / searches; ↓ goes into the list.
    await page.keyboard.press('g')
    await page.keyboard.press('r')
    await expect(page).toHaveURL(/\/requests$/)
    await expect(page.getByTestId('request-count')).toHaveText('402 requests')
    await page.keyboard.press('/')
    await expect(page.getByLabel('Search join requests')).toBeFocused()
    await page.keyboard.press('ArrowDown')
    const focused = page.locator('[data-testid="requests-list"] > li:focus')
    await expect(focused).toHaveAttribute('aria-posinset', '1')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect(focused).toHaveAttribute('aria-posinset', '3')
    await page.keyboard.press('PageDown')
    await expect.poll(async () => Number(await focused.getAttribute('aria-posinset'))).toBeGreaterThan(6)
    await page.keyboard.press('Home')
    await expect(focused).toHaveAttribute('aria-posinset', '1')

    // x chooses the focused request, and again un-chooses it.
    await page.keyboard.press('x')
    await expect(page.getByRole('button', { name: 'Admit 1' })).toBeVisible()
    await expect(focused.getByRole('checkbox')).toBeChecked()
    await page.keyboard.press('x')
    await expect(page.getByRole('button', { name: 'Admit 1' })).toHaveCount(0)

    // End: the last of 402, drawn though it was far out of view; a admits it.
    await page.keyboard.press('End')
    await expect(focused).toHaveAttribute('data-testid', `request-${asking.did}`)
    await expect(focused).toBeInViewport()
    await page.keyboard.press('a')
    await expect(page.getByTestId(`request-${asking.did}`)).toHaveCount(0, { timeout: 15_000 })
    // Once the host confirms, the row goes (the catch-up applies our own admission from the
    // change log; the seeded rows stay, no list being read again): focus stays in the
    // list, on the row now nearest its place.
    await expect(page.getByTestId('request-count')).toHaveText('401 requests')
    await expect(focused).toHaveAttribute('data-testid', `request-${first.did}`)
    expect((await asking.call('example.groups.requestJoin', { group: groupDid })).body.error).toBe('AlreadyMember')

    await seedCachedSubjects(app.dataDir, owner.did, groupDid, 3)
    // g o: moderation. r on a report asks for a note first; Escape backs out, focus stays on the row.
    await page.keyboard.press('g')
    await page.keyboard.press('o')
    await expect(page).toHaveURL(/\/moderation$/)
    await page.keyboard.press('/')
    await page.keyboard.press('ArrowDown')
    const report = page.locator('[data-testid="subjects-list"] > li:focus')
    await expect(report).toHaveAttribute('aria-posinset', '1')
    await page.keyboard.press('r')
    await expect(page.getByTestId('decision-dialog')).toBeVisible()
    await expect(page.getByRole('heading', { name: /^Resolve the report about/ })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('decision-dialog')).toHaveCount(0)
    await expect(report).toHaveAttribute('aria-posinset', '1')
    // g then r on a report is a sequence (go to requests), not "resolve".
    await page.keyboard.press('g')
    await page.keyboard.press('r')
    await expect(page).toHaveURL(/\/requests$/)
    await expect(page.getByTestId('decision-dialog')).toHaveCount(0)

    // ] and [ step through the groups, keeping the section: [ goes to the group above
    // this one in the switcher (the account's groups found after sign-in are there too),
    // ] comes back.
    const links = page.getByRole('navigation', { name: 'Your groups' }).locator('[data-testid^="group-link-"]')
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))
    const here = hrefs.findIndex((h) => h.includes(groupDid))
    const above = hrefs[(here - 1 + hrefs.length) % hrefs.length]!.split('/')[3]!
    expect(hrefs.length).toBeGreaterThan(1)
    expect(hrefs.some((h) => h.includes(other.groupDid))).toBe(true)
    await page.keyboard.press('[')
    await expect(page).toHaveURL(groupPage(decodeURIComponent(above), 'requests'))
    await page.keyboard.press(']')
    await expect(page).toHaveURL(groupPage(groupDid, 'requests'))
    // g p: the pending changes page.
    await page.keyboard.press('g')
    await page.keyboard.press('p')
    await expect(page).toHaveURL(/\/outbox$/)
  })

  test('a button pressed from the keyboard keeps the focus through the work it starts (Sync now)', async ({ page, app, signedIn: _owner }) => {
    const sync = page.getByRole('button', { name: 'Sync now' })
    // A sync of a few groups on loopback is quicker than a frame; the window's call is
    // held back a little so the button is surely drawn disabled (in the loopback shell the
    // window reaches the core over HTTP; Electron's IPC cannot be held from here).
    if (!app.electronApp) {
      await page.route('**/ipc/sync.now', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        await route.continue()
      })
    }
    await sync.focus()
    await page.keyboard.press('Enter')
    // Disabled while it runs (which takes focus away from it in Chromium), then back.
    if (!app.electronApp) {
      await expect(page.getByRole('button', { name: 'Syncing…' })).toBeDisabled()
      await expect.poll(() => page.evaluate<boolean>('document.activeElement === document.body')).toBe(true)
    }
    await expect(sync).toBeEnabled({ timeout: 30_000 })
    await expect(sync).toBeFocused()
    // So the next Tab goes on from there, not from the top of the window.
    await page.keyboard.press('Tab')
    await expect(sync).not.toBeFocused()
    expect(await page.evaluate<boolean>('document.activeElement !== document.body')).toBe(true)
  })
})
