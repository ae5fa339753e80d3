import fs from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

export { HOST_BUNDLE_ENV } from './host-process.js'

const REPO_ROOT = path.resolve(import.meta.dirname, '../..')
/**
 * Bundles live two folders below the repository, as src/node does: the host finds the
 * lexicons relative to its own file (src/node/lexicons.ts), and that path stays true.
 */
const BUNDLES = path.join(REPO_ROOT, '.test-host')
const STALE_MS = 24 * 60 * 60_000

/**
 * The group host's own code in one file, its packages left to node_modules, made from
 * the sources as they are now. A test run starts a host for every test file (over a
 * hundred); one started from this bundle is ready in about half the time one started
 * through tsx takes, which compiles each of its files on every start. Made once per run
 * (the test runners' global set-up), so it is never older than the code it tests.
 */
export async function buildHostBundle(): Promise<{ file: string; remove(): void }> {
  fs.mkdirSync(BUNDLES, { recursive: true })
  // A run that was killed leaves its bundle behind: sweep those a day old.
  for (const name of fs.readdirSync(BUNDLES)) {
    const dir = path.join(BUNDLES, name)
    if (Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true })
  }
  const dir = fs.mkdtempSync(path.join(BUNDLES, 'run-'))
  const file = path.join(dir, 'bin.mjs')
  await build({
    entryPoints: [path.join(REPO_ROOT, 'src/host/bin.ts')],
    outfile: file,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Stack traces in the host's log name the source files (the process runs with --enable-source-maps).
    sourcemap: 'inline',
    logLevel: 'warning',
  })
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) }
}
