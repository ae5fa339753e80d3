import { test, expect, saveDownload } from './support/fixtures.js'
import { startGroup } from './support/start-group.js'

test.describe('lists out', () => {
  test('an organizer saves the members as CSV, named by handle and DID, from the cache', async ({ page, app, signedIn: owner }) => {
    await startGroup(page, { prefix: 'roster', name: 'Rowing club', policy: 'approval', section: 'Members' })
    const { fileName, text } = await saveDownload(page, app, () => page.getByRole('button', { name: 'Export members (CSV)' }).click())
    expect(fileName).toMatch(/-members\.csv$/)
    const lines = text.trim().split('\r\n')
    expect(lines[0]).toBe('name,handle,DID,roles,joined,accepted membership')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain(`${owner.handle},${owner.did},owner`)
    await expect(page.getByTestId('toasts')).toContainText('Saved 1 member as CSV')
  })
})
