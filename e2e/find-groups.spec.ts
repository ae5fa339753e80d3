import { test, expect } from './support/fixtures.js'
import { axeViolations } from './support/axe.js'

// About the network's seeded demo groups, so with the seeded people (fixtures.ts, `cast`).
test.use({ cast: 'demo' })

test.describe('finding your groups', () => {
  test('after sign-in, an organizer sees every group they hold a role in, without typing a handle', async ({ page, app, signedIn: _owner }) => {

    const switcher = page.getByRole('navigation', { name: 'Your groups' })
    for (const g of app.stack.groups) await expect(switcher.getByTestId(`group-link-${g.handle}`)).toBeVisible({ timeout: 20_000 })
    // Never "No groups yet" for someone who owns groups.
    await expect(switcher.getByText('No groups yet.')).toHaveCount(0)
    await expect(switcher.getByTestId('finding-groups')).toHaveCount(0)

    // From the keyboard: the group opens, showing the role found.
    const approval = app.stack.groups.find((g) => g.name === 'approval')!
    await switcher.getByTestId(`group-link-${approval.handle}`).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByText(/You are owner/)).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
  })
})
