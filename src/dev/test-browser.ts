import fs from 'node:fs'

/**
 * The Chromium the tests and the UI bench drive (playwright-core never downloads one):
 * CONVENE_CHROMIUM when set (scripts/system-deps.sh finds one on macOS and Windows),
 * else Debian's headless shell, else Debian's Chromium. The headless shell is the same
 * Blink without the browser around it, which Playwright itself runs headless tests in:
 * measured on the end-to-end suite, about a quarter less CPU for the same tests.
 */
export function testBrowserPath(): string {
  if (process.env.CONVENE_CHROMIUM) return process.env.CONVENE_CHROMIUM
  const shell = '/usr/bin/chromium-headless-shell'
  return fs.existsSync(shell) ? shell : '/usr/bin/chromium'
}

/**
 * Full Chromium, for the few specs that need what the headless shell leaves out: it
 * denies the Notification permission outright, so a page there can never ask for it.
 */
export function fullBrowserPath(): string {
  return process.env.CONVENE_CHROMIUM ?? '/usr/bin/chromium'
}

/** Flags for a browser on a machine with no GPU and no network beyond loopback and the registries. */
export const TEST_BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']
