import { test, expect, signInThroughPds } from './support/fixtures.js'
import { groupWithEverything, layoutProblems, mainScreens, visit, WINDOW_SIZES } from './support/window-fit.js'
import { axeViolations } from './support/axe.js'

// About the network's seeded demo groups, so with the seeded people (fixtures.ts, `cast`).
test.use({ cast: 'demo' })

/**
 * Issue 26, "a window that fits": at a small window and at 200 % zoom nothing is cut
 * off, covered or scrolled sideways, and no screen scrolls when what it shows fits.
 * Checked in the browser on every main screen, in the page's own layout.
 */
for (const size of WINDOW_SIZES) {
  test.describe(`at ${size.name}`, () => {
    // Zoom is device pixels per CSS pixel: a page made at scale 2 and sized 640x430 is
    // laid out as Chromium lays out a 1280x860 window at 200 %.
    test.use({ deviceScaleFactor: size.scale })

    test('every main screen fits: no sideways scroll, no stray scroll, every control whole and uncovered', async ({ page, app, signedIn: owner }, testInfo) => {
      const { groupDid } = await groupWithEverything(page, app, owner.did)
      await page.setViewportSize({ width: size.width, height: size.height })
      expect(await page.evaluate<number[]>('[innerWidth, devicePixelRatio]')).toEqual([size.width, size.scale])

      for (const screen of mainScreens(owner.did, groupDid)) {
        await visit(page, screen)
        expect(await layoutProblems(page), `${screen.name} at ${size.name}`).toEqual([])
      }
      // A short screen does not scroll at all.
      await visit(page, mainScreens(owner.did, groupDid).find((s) => s.name === 'pending changes')!)
      expect(await page.evaluate<number>('document.documentElement.scrollHeight - document.documentElement.clientHeight'), 'stray scroll on a short screen').toBe(0)
      await page.screenshot({ path: testInfo.outputPath('pending-changes.png') })
    })

    test('the sidebar folds into a Groups button that opens it over the content; row actions fold into a menu', async ({ page, app, signedIn: owner }) => {
      const { groupDid, name } = await groupWithEverything(page, app, owner.did)
      await page.setViewportSize({ width: size.width, height: size.height })
      const sidebar = page.getByRole('navigation', { name: 'Your groups' })
      const toggle = page.getByRole('button', { name: 'Groups', exact: true })

      // Folded away; the button says so and opens it, focus inside.
      await expect(sidebar).toBeHidden()
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await toggle.focus()
      await page.keyboard.press('Enter')
      await expect(sidebar).toBeVisible()
      await expect(toggle).toHaveAttribute('aria-expanded', 'true')
      await expect(sidebar.getByRole('link').first()).toBeFocused()
      expect(await layoutProblems(page, '#group-sidebar'), 'the open sidebar').toEqual([])
      expect(await axeViolations(page, { include: '#group-sidebar' }), 'axe on the open sidebar').toEqual([])
      // Escape closes it, back on the button.
      await page.keyboard.press('Escape')
      await expect(sidebar).toBeHidden()
      await expect(toggle).toBeFocused()
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      // Choosing a group there closes it too.
      await toggle.click()
      await sidebar.getByRole('link', { name: new RegExp(`^${name}`) }).click()
      await expect(sidebar).toBeHidden()

      // A member's actions are one "More actions" menu button: arrows move, Escape comes back.
      await visit(page, mainScreens(owner.did, groupDid).find((s) => s.name === 'members')!)
      const row = page.getByTestId('members-list').getByRole('listitem').filter({ hasText: 'reader1.test' })
      const more = row.getByRole('button', { name: /^More actions for / })
      await expect(more).toHaveAttribute('aria-haspopup', 'menu')
      await expect(row.getByRole('button', { name: /^Report / })).toHaveCount(0)
      await more.focus()
      await page.keyboard.press('ArrowDown')
      await expect(more).toHaveAttribute('aria-expanded', 'true')
      const menu = page.getByRole('menu')
      await expect(menu.getByRole('menuitem').first()).toBeFocused()
      await expect(menu.getByRole('menuitem', { name: /^Report / })).toBeVisible()
      expect(await layoutProblems(page, '[role="menu"]'), 'the open menu').toEqual([])
      expect(await axeViolations(page, { include: '[data-testid="members-list"]' }), 'axe on the row with its menu open').toEqual([])
      await page.keyboard.press('End')
      await expect(menu.getByRole('menuitem').last()).toBeFocused()
      await page.keyboard.press('ArrowDown')
      await expect(menu.getByRole('menuitem').first()).toBeFocused()
      await page.keyboard.press('Escape')
      await expect(menu).toHaveCount(0)
      await expect(more).toBeFocused()
      await expect(more).toHaveAttribute('aria-expanded', 'false')
      // Choosing an item does what its button did: Report opens the report dialog.
      await page.keyboard.press('Enter')
      await page.getByRole('menuitem', { name: /^Report / }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
    })
  })
}

test.describe('the groups sidebar', () => {
  test('lists a group two accounts reach once, says through whom, opens it as the one with more rights; a pin puts it first, after a reload too', async ({ page, app, signedIn: owner }) => {
    const moderator = app.stack.accounts.find((a) => a.name === 'moderator')!
    const approval = app.stack.groups.find((g) => g.name === 'approval')!
    await page.getByRole('link', { name: 'Accounts' }).click()
    await signInThroughPds(page, moderator.handle, moderator.password)
    const sidebar = page.getByRole('navigation', { name: 'Your groups' })
    const links = sidebar.getByRole('link', { name: /^Approval group/ })
    await expect(links).toHaveCount(1)
    await expect(links).toContainText(`via @${owner.handle}, @${moderator.handle}`)
    // Opened as the owner, who has more rights there than the moderator.
    await links.click()
    await expect(page.getByRole('heading', { name: 'Approval group', level: 1 })).toBeVisible()
    expect(decodeURIComponent(page.url())).toContain(`/g/${owner.did}/${approval.did}`)
    // The other account's view is one choice away, on the same group.
    const actingAs = page.getByLabel('Acting as')
    await expect(actingAs).toHaveValue(owner.did)
    await actingAs.selectOption({ label: `@${moderator.handle}` })
    await expect(page).toHaveURL(new RegExp(`/g/(${moderator.did}|${encodeURIComponent(moderator.did)})/`))
    await expect(page.getByText(/You are moderator/)).toBeVisible()
    await expect(links).toHaveCount(1)
    await expect(links).toHaveAttribute('aria-current', 'page')

    // The group listed last, pinned, comes first, and stays first after a reload.
    const groupLinks = sidebar.locator('[data-testid^="group-link-"]')
    expect(await groupLinks.count()).toBeGreaterThan(1)
    const lastId = (await groupLinks.last().getAttribute('data-testid'))!
    const lastName = (await groupLinks.last().locator('.switcher-name').textContent())!.trim()
    // Other tests start groups with the same name: the pin is the one beside this link.
    const pin = sidebar.getByRole('listitem').filter({ has: page.getByTestId(lastId) }).getByRole('button', { name: `Pin ${lastName}`, exact: true })
    await expect(pin).toHaveAttribute('aria-pressed', 'false')
    await pin.focus()
    await page.keyboard.press('Enter')
    await expect(pin).toHaveAttribute('aria-pressed', 'true')
    await expect(groupLinks.first()).toHaveAttribute('data-testid', lastId)
    await page.reload()
    await expect(sidebar.getByRole('link', { name: /^Approval group/ })).toHaveCount(1)
    await expect(groupLinks.first()).toHaveAttribute('data-testid', lastId)
    await expect(pin).toHaveAttribute('aria-pressed', 'true')
    // Unpinned, it goes back among the others.
    await pin.click()
    await expect(pin).toHaveAttribute('aria-pressed', 'false')
    await expect(groupLinks.last()).toHaveAttribute('data-testid', lastId)
  })

  test('hidden beside a wide window by choice, and still hidden after a reload', async ({ page, signedIn: _owner }) => {
    const sidebar = page.getByRole('navigation', { name: 'Your groups' })
    const toggle = page.getByRole('button', { name: 'Groups', exact: true })
    await expect(sidebar).toBeVisible()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await toggle.click()
    await expect(sidebar).toBeHidden()
    await page.reload()
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(sidebar).toBeHidden()
    await toggle.click()
    await expect(sidebar).toBeVisible()
  })
})
