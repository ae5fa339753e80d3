import type { Page } from '@playwright/test'
import { test, expect } from './support/fixtures.js'
import { openSection } from './support/start-group.js'

// About the network's seeded demo groups, so with the seeded people (fixtures.ts, `cast`).
test.use({ cast: 'demo' })

/** Opens a seeded group from the switcher (found after sign-in) and waits for its page. */
async function openFromSwitcher(page: Page, handle: string, name: string) {
  const link = page.getByRole('navigation', { name: 'Your groups' }).getByTestId(`group-link-${handle}`)
  await expect(link).toBeVisible({ timeout: 20_000 })
  await link.click()
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()
}
/** The group section on screen, as its tab says to assistive tech. */
const currentTab = (page: Page) => page.getByRole('navigation', { name: 'Group sections' }).locator('[aria-current="page"]')

test.describe('where a group opens', () => {
  test.describe('for a moderator', () => {
    test.use({ signInAs: 'moderator' })

    test('a group opens on Moderation, and on the tab last chosen there once one is', async ({ page, app, signedIn: _moderator }, testInfo) => {
      const open = app.stack.groups.find((g) => g.name === 'open')!
      const approval = app.stack.groups.find((g) => g.name === 'approval')!

      await openFromSwitcher(page, open.handle, 'Open group')
      await expect(page.getByText(/You are moderator/)).toBeVisible()
      await expect(page).toHaveURL(/\/moderation$/)
      await expect(currentTab(page)).toHaveText(/^Moderation/)
      // No tab a moderator has not got, and none of its empty words.
      await expect(page.getByRole('navigation', { name: 'Group sections' }).getByRole('link', { name: /Join requests/ })).toHaveCount(0)
      await expect(page.getByTestId('requests-empty')).toHaveCount(0)
      // The switcher marks the group on screen.
      await expect(page.getByTestId(`group-link-${open.handle}`)).toHaveAttribute('aria-current', 'page')
      await page.screenshot({ path: testInfo.outputPath('moderator-lands-on-moderation.png'), fullPage: true })

      // Choosing Members here; another group still opens on its own work…
      await openSection(page, 'Members')
      await expect(currentTab(page)).toHaveText('Members')
      await openFromSwitcher(page, approval.handle, 'Approval group')
      await expect(page).toHaveURL(/\/moderation$/)
      await expect(currentTab(page)).toHaveText(/^Moderation/)
      // …and coming back to the first opens it on Members, as it was left.
      await openFromSwitcher(page, open.handle, 'Open group')
      await expect(page).toHaveURL(/\/members$/)
      await expect(currentTab(page)).toHaveText('Members')
      // Away to the groups page and back: still Members.
      await page.getByRole('link', { name: '+ Add or start a group' }).click()
      await expect(page.getByRole('heading', { name: 'Your groups', level: 1 })).toBeVisible()
      await openFromSwitcher(page, open.handle, 'Open group')
      await expect(currentTab(page)).toHaveText('Members')

      // g then o still goes straight to a section; ] keeps it in the next group.
      await page.keyboard.press('g')
      await page.keyboard.press('o')
      await expect(page).toHaveURL(/\/moderation$/)
      const here = page.url()
      await page.keyboard.press(']')
      await expect(page).not.toHaveURL(here)
      await expect(page).toHaveURL(/\/moderation$/)
    })
  })

  test.describe('for a member', () => {
    test.use({ signInAs: 'member' })

    test('a group opens on its calendar', async ({ page, app, signedIn: _member }) => {
      const open = app.stack.groups.find((g) => g.name === 'open')!
      await openFromSwitcher(page, open.handle, 'Open group')
      await expect(page.getByText(/You are member/)).toBeVisible()
      await expect(page).toHaveURL(/\/calendar$/)
      await expect(currentTab(page)).toHaveText('Calendar')
      await expect(page.getByRole('navigation', { name: 'Group sections' }).getByRole('link')).toHaveText(['Members', 'Calendar', 'Advanced'])
    })
  })
})
