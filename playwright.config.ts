import { defineConfig } from '@playwright/test'
import type { Shell } from './e2e/support/fixtures.js'
import { TEST_BROWSER_ARGS, testBrowserPath } from './src/dev/test-browser.js'

/**
 * End-to-end tests drive Debian's Chromium headless shell (src/dev/test-browser.ts; playwright-core never downloads a browser
 * here) against the loopback shell, the real core and the real local network.
 */
export default defineConfig<{ shell: Shell }>({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  // Each worker has its own local network (support/global-setup.ts) and each test its own
  // app and people. A test mostly waits (on its host, the PDS, the window): one worker kept
  // the two cores under a third busy, and a second one took a quarter off the run.
  workers: 2,
  // `npm test` also keeps a JSON report for its closing table of the slowest files (scripts/test-report.mjs).
  reporter: [['list', { printSteps: false }], ...(process.env.CONVENE_TEST_REPORT_DIR ? [['json', { outputFile: `${process.env.CONVENE_TEST_REPORT_DIR}/playwright.json` }] as const] : [])],
  globalSetup: './e2e/support/global-setup.ts',
  use: {
    screenshot: 'on',
    // A failed test keeps its trace: each action with the page's DOM as it was. Not the
    // screencast filmstrip: recording it in every test (kept or not) cost a quarter of the
    // end-to-end phase's time (docs/testing.md); the DOM snapshots show the same moments.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: false },
    launchOptions: {
      executablePath: testBrowserPath(),
      args: TEST_BROWSER_ARGS,
    },
  },
  projects: [
    { name: 'loopback-chromium', use: { shell: 'loopback' } },
    // The same spec files again in the Electron shell (_electron; see support/fixtures.ts).
    // They skip, with the reason printed, where no Electron binary exists.
    { name: 'electron', use: { shell: 'electron' } },
  ],
})
