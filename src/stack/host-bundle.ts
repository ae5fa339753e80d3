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
 * Packages left out of the bundle: native code, and optional ones the host never loads.
 */
const EXTERNAL = ['better-sqlite3', 'pg-native']

/**
 * The group host in one file, its packages included, made from the sources as they are
 * now. A test run starts a host for every test file (well over a hundred), and a start was
 * mostly Node finding and reading the host's packages, file by file: about 1.7 s of CPU on
 * this machine, more than the host then spent on its file's tests. From one file, with
 * Node's compile cache kept beside it, a start costs about 1 s less (docs/testing.md).
 * Made once per run (the test runners' global set-up), so it is never older than the code
 * it tests.
 *
 * No source map: Node reads the whole map of a module this size at every start (about
 * 0.8 s). A stack trace in a test host's log names `host.mjs` lines; run the file again
 * through tsx (`npm run host`) to read one against the sources.
 */
export async function buildHostBundle(opts: { warm?: boolean } = {}): Promise<{ file: string; remove(): void }> {
  fs.mkdirSync(BUNDLES, { recursive: true })
  // A run that was killed leaves its bundle behind: sweep those a day old.
  for (const name of fs.readdirSync(BUNDLES)) {
    const dir = path.join(BUNDLES, name)
    if (Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true })
  }
  const dir = fs.mkdtempSync(path.join(BUNDLES, 'run-'))
  await bundleHost(path.join(REPO_ROOT, 'src/host/cli.ts'), path.join(dir, HOST_MODULE))
  const file = path.join(dir, 'bin.mjs')
  fs.writeFileSync(file, binSource())
  // Without a warm entry no host is started ahead (a bench wants no idle host loading beside its measurements).
  if (opts.warm ?? true) fs.writeFileSync(path.join(dir, WARM_HOST_FILE), warmHostSource())
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

/**
 * Bundles the host from `entry` into `outfile`, which must lie two folders below the tree
 * `entry` is in (see BUNDLES). Also for `npm run bench:host -- --against <ref>`, which
 * bundles an older tree's host to measure beside this one.
 */
export async function bundleHost(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    external: EXTERNAL,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: { js: "import { createRequire as __conveneRequire } from 'node:module'; const require = __conveneRequire(import.meta.url);" },
    logLevel: 'warning',
  })
}

/** The bundled host's module: its command line as `run(argv)`, nothing run on import. */
const HOST_MODULE = 'host.mjs'

/** Compiled code of the bundle, kept for the run's later starts (Node's module compile cache). */
const COMPILE_CACHE = `import { enableCompileCache } from 'node:module'
enableCompileCache(new URL('./compile-cache', import.meta.url).pathname)`

/** `node bin.mjs <args>`: the host, as `node --import tsx src/host/bin.ts <args>` runs it. */
function binSource(): string {
  return `// Written by src/stack/host-bundle.ts for this test run.
${COMPILE_CACHE}
const { run } = await import('./${HOST_MODULE}')
run()
`
}

/**
 * A host process started before a test file needs one (host-process.ts keeps one ready per
 * test worker): it loads the whole host at once, which is most of a start, then waits for
 * its command line and environment on stdin (one JSON line) and runs the host with them,
 * as \`node bin.mjs <args>\` would. (The host reads its environment when it starts, never
 * when it loads.) Its parent closing stdin first (the worker is done) ends it.
 */
function warmHostSource(): string {
  return `// Written by src/stack/host-bundle.ts for this test run: see warmHostSource there.
import { createInterface } from 'node:readline'
${COMPILE_CACHE}

const BIN = new URL('./bin.mjs', import.meta.url).pathname
// Loaded now; a load that fails is said when the host is asked to start.
const loaded = import('./${HOST_MODULE}')
loaded.catch(() => {})
let started = false
const input = createInterface({ input: process.stdin })
input.once('line', async (line) => {
  started = true
  input.close()
  const { argv, env } = JSON.parse(line)
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key]
  Object.assign(process.env, env)
  process.argv = [process.argv[0], BIN, ...argv]
  const { run } = await loaded
  run(argv)
})
process.stdin.once('end', () => started || process.exit(0))
`
}
