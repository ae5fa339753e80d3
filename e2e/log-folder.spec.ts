import path from 'node:path'
import { test, expect } from './support/fixtures.js'

test.describe('log folder', () => {
  test('the help dialog opens the log folder, or shows where it is when it cannot', async ({ page, app }) => {
    if (app.electronApp) {
      // Stand in for the file manager: keep the folders the app asks it to open.
      await app.electronApp.evaluate(({ shell }) => {
        const opened: string[] = []
        Object.assign(globalThis, { conveneOpenedFolders: opened })
        shell.openPath = async (folder: string) => (opened.push(folder), '')
      })
    }
    await app.open(page)
    await page.getByTestId('shortcuts-button').click()
    const help = page.getByTestId('shortcuts-dialog')
    await help.getByRole('button', { name: 'Open log folder' }).click()
    if (app.electronApp) {
      await expect
        .poll(() => app.electronApp!.evaluate(() => (globalThis as unknown as { conveneOpenedFolders: string[] }).conveneOpenedFolders))
        .toEqual([expect.stringMatching(/[/\\]logs$|[/\\]Logs[/\\]Convene$/)])
      await expect(help.getByTestId('log-folder-path')).toHaveCount(0)
    } else {
      // A browser tab cannot open folders: the loopback shell names it instead.
      await expect(help.getByTestId('log-folder-path')).toHaveText(`The log is in ${path.join(app.dataDir, 'logs')}`)
    }
  })
})
