import path from 'node:path'
import { test } from './support/fixtures.js'
import { groupWithEverything, mainScreens, visit, WINDOW_SIZES } from './support/window-fit.js'

/**
 * Not a test: pictures of the main screens at 1280x860, 900x700 and 1280x860 at 200 %
 * zoom, in light and dark, for a person to look at (issue 26's closing note). Runs only
 * when asked:
 *
 *   CONVENE_SCREENSHOTS=1 playwright test e2e/window-screenshots.spec.ts --project loopback-chromium
 *
 * (in the e2e environment the other specs use: built renderer, keyring session). The
 * pictures land in test-results/window-screenshots/, which git ignores and the next
 * Playwright run clears.
 */
const SIZES = [{ name: '1280x860', width: 1280, height: 860, scale: 1 }, ...WINDOW_SIZES]
const OUT = path.resolve(import.meta.dirname, '../test-results/window-screenshots')

for (const size of SIZES) {
  test.describe(`screenshots at ${size.name}`, () => {
    test.skip(!process.env.CONVENE_SCREENSHOTS, 'pictures only when CONVENE_SCREENSHOTS=1')
    test.use({ deviceScaleFactor: size.scale })

    test('the main screens, light and dark', async ({ page, app, signedIn: owner }) => {
      test.setTimeout(180_000)
      const { groupDid } = await groupWithEverything(page, app, owner.did)
      await page.setViewportSize({ width: size.width, height: size.height })
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        for (const screen of mainScreens(owner.did, groupDid)) {
          await visit(page, screen)
          const file = `${size.name.replace(/[^0-9a-z]+/gi, '-')}-${scheme}-${screen.name.replace(/ /g, '-')}.png`
          await page.screenshot({ path: path.join(OUT, file) })
        }
      }
    })
  })
}
