import { test, expect } from './support/fixtures.js'
import { openSection, startGroup } from './support/start-group.js'

test.describe('spaces, under Advanced', () => {
  test('offers spaces in plain words, makes one from a preset and one from Custom, once each, then changes and deletes it', async ({ page, signedIn: _owner }, testInfo) => {
    await startGroup(page, { prefix: 'spaces', name: 'Spaces test', policy: 'approval', section: 'Advanced' })
    await expect(page.getByRole('heading', { name: 'Spaces', exact: true })).toBeVisible()

    const list = page.getByTestId('spaces-list')
    await expect(list.getByTestId('space-meta')).toContainText('Built in')
    await expect(list.getByTestId('space-members')).toContainText('Built in')

    // Presets in plain words; the raw type and key only under Custom.
    const editor = page.getByRole('form', { name: 'Add a space' })
    await expect(editor.getByRole('radio', { name: /Members-only calendar/ })).toBeVisible()
    await expect(editor.getByRole('radio', { name: /Private space for organizers/ })).toBeVisible()
    await expect(editor.getByLabel('Kind (space type)')).toHaveCount(0)

    await editor.getByRole('radio', { name: /Private space for organizers/ }).check()
    await expect(editor.getByLabel('Name', { exact: true })).toHaveValue('Organizers')
    await editor.getByRole('button', { name: 'Create space' }).click()
    const organizers = list.getByTestId('space-example.groups.organizers')
    // Moderators read what organizers read, by default.
    await expect(organizers).toContainText('Seen by owner, admin, moderator')
    await expect(organizers).not.toContainText('member')
    await expect(organizers).not.toContainText('Sending', { timeout: 15_000 })
    // Made once: the preset now says the group has it, and cannot be chosen again.
    await expect(editor.getByRole('radio', { name: /Private space for organizers/ })).toBeDisabled()
    await expect(page.getByTestId('space-preset-organizers')).toContainText('already has it')

    // Custom: the raw fields, every role reading by default.
    await editor.getByRole('radio', { name: /Custom/ }).check()
    await editor.getByLabel('Kind (space type)').fill('example.groups.forum')
    await editor.getByLabel('Name', { exact: true }).fill('Forum')
    await expect(editor.getByRole('checkbox', { name: 'moderator' })).toBeChecked()
    await editor.getByLabel('admin', { exact: true }).last().fill('*')
    await editor.getByRole('button', { name: 'Create space' }).click()
    const forum = list.getByTestId('space-example.groups.forum')
    await expect(forum).toContainText('Forum')
    await expect(forum).toContainText('admin writes anything')
    await expect(forum).not.toContainText('Sending', { timeout: 15_000 })

    // The index is checked first: the same kind cannot be made twice.
    await editor.getByRole('radio', { name: /Custom/ }).check()
    await editor.getByLabel('Kind (space type)').fill('example.groups.forum')
    await expect(page.getByTestId('space-duplicate')).toContainText('already has that space')
    await expect(editor.getByRole('button', { name: 'Create space' })).toBeDisabled()
    await page.screenshot({ path: testInfo.outputPath('spaces.png'), fullPage: true })

    await page.getByRole('button', { name: 'Change Forum' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Discussion')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(forum).toContainText('Discussion')

    await page.getByRole('button', { name: 'Delete Discussion' }).click()
    await page.getByRole('button', { name: 'Really delete Discussion and its records' }).click()
    await expect(forum).toHaveCount(0, { timeout: 15_000 })
  })

  test('the calendar space made by the first event is listed', async ({ page, signedIn: _owner }) => {
    await startGroup(page, { prefix: 'calspace', name: 'Calendar space', policy: 'open', section: 'Calendar' })
    await page.getByRole('button', { name: 'New event' }).click()
    const form = page.getByRole('dialog', { name: 'New event' })
    await form.getByLabel('Name').fill('First meeting')
    await form.getByLabel('Start date').fill(new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10))
    await form.getByLabel('Start time').fill('19:00')
    await form.getByRole('button', { name: 'Add event' }).click()
    await expect(form).toBeHidden()
    await expect(page.getByRole('heading', { name: 'First meeting' })).toBeVisible()
    await expect(page.getByText('Sending…')).toHaveCount(0, { timeout: 15_000 })
    // Its Delete is quiet (outlined, not a solid red block), and still asks first.
    const remove = page.getByRole('button', { name: 'Delete First meeting' })
    await expect(remove).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)')
    await remove.click()
    await expect(page.getByRole('alertdialog', { name: 'Delete “First meeting”?' })).toBeVisible()
    await page.keyboard.press('Escape')

    await openSection(page, 'Advanced')
    const calendar = page.getByTestId('spaces-list').getByTestId('space-community.lexicon.calendar')
    await expect(calendar).toContainText('Calendar', { timeout: 15_000 })
    await expect(calendar).toContainText('owner writes events, event images')
    // Its preset is offered no more.
    await expect(page.getByRole('radio', { name: /Members-only calendar/ })).toBeDisabled()
  })
})
