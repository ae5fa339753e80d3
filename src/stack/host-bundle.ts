import fs from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

import { WARM_HOST_FILE } from './host-process.js'

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
  const { metafile } = await build({
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
    metafile: true,
  })
  const packages = [...new Set(Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)))]
  fs.writeFileSync(path.join(dir, WARM_HOST_FILE), warmHostSource(packages))
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

/**
 * A host process started before a test file needs one (host-process.ts keeps one ready per
 * test worker): it imports the host's packages at once, which is most of a host's start
 * (about 1.4 of 1.6 s, measured), then waits for its command line and environment on stdin
 * (one JSON line) and runs the bundle with them, as `node bin.mjs <args>` would. Its parent
 * closing stdin first (the worker is done) ends it.
 */
function warmHostSource(packages: string[]): string {
  return `// Written by src/stack/host-bundle.ts for this test run: see warmHostSource there.
import { createInterface } from 'node:readline'

const BIN = new URL('./bin.mjs', import.meta.url).pathname
let started = false
const input = createInterface({ input: process.stdin })
input.once('line', (line) => {
  started = true
  input.close()
  const { argv, env } = JSON.parse(line)
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key]
  Object.assign(process.env, env)
  process.argv = [process.argv[0], BIN, ...argv]
  import(BIN)
})
process.stdin.once('end', () => started || process.exit(0))
for (const name of ${JSON.stringify(packages)}) await import(name).catch(() => {})
`
}
