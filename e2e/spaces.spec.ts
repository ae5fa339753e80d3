import { test, expect } from './support/fixtures.js'

test.describe('spaces', () => {
  test('shows the index with built-in spaces locked, creates a space once, changes and deletes it', async ({ page, signedIn: _owner }, testInfo) => {

    // A group of this test's own, started from the app.
    const handle = `spaces${Date.now().toString(36)}.groups.test`
    await page.getByLabel('Handle', { exact: true }).fill(handle)
    await page.getByLabel('Name', { exact: true }).fill('Spaces test')
    await page.getByRole('button', { name: 'Start group' }).click()
    await expect(page.getByRole('heading', { name: 'Spaces test' })).toBeVisible()
    await page.getByRole('navigation', { name: 'Group sections' }).getByRole('link', { name: 'Spaces' }).click()

    const list = page.getByTestId('spaces-list')
    await expect(list.getByTestId('space-meta')).toContainText('Built in')
    await expect(list.getByTestId('space-members')).toContainText('Built in')

    await page.getByLabel('Kind (space type)').fill('example.groups.forum')
    await page.getByLabel('Name', { exact: true }).fill('Forum')
    await page.getByLabel('admin', { exact: true }).last().fill('*')
    await page.getByRole('button', { name: 'Create space' }).click()
    const forum = list.getByTestId('space-example.groups.forum')
    await expect(forum).toContainText('Forum')
    await expect(forum).toContainText('admin: *')
    await expect(forum).not.toContainText('Sending', { timeout: 15_000 })

    // The index is checked first: the same kind cannot be made twice.
    await page.getByLabel('Kind (space type)').fill('example.groups.forum')
    await expect(page.getByTestId('space-duplicate')).toContainText('already has that space')
    await expect(page.getByRole('button', { name: 'Create space' })).toBeDisabled()
    await page.screenshot({ path: testInfo.outputPath('spaces.png'), fullPage: true })

    await page.getByRole('button', { name: 'Change Forum' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Discussion')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(forum).toContainText('Discussion')

    await page.getByRole('button', { name: 'Delete Discussion' }).click()
    await page.getByRole('button', { name: 'Really delete Discussion and its records' }).click()
    await expect(forum).toHaveCount(0, { timeout: 15_000 })
  })
})
