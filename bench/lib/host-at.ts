import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { REPO_ROOT } from '../../src/stack/stack.js'
import { bundleHost } from '../../src/stack/host-bundle.js'

/**
 * The group host as it was at a git ref, bundled into one file to run beside today's in
 * the same bench run (`--against <ref>`): the tree at that ref, this checkout's
 * `node_modules` (a ref whose dependencies differ much may not bundle), its own lexicon
 * code generated, and its `src/host/bin.ts` bundled (which runs the host when loaded).
 */
export async function hostBundleAt(ref: string, log: (line: string) => void): Promise<{ file: string; sha: string; remove(): void }> {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: REPO_ROOT, encoding: 'utf8' }).trim()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `convene-host-at-${sha.slice(0, 8)}-`))
  const remove = () => fs.rmSync(dir, { recursive: true, force: true })
  try {
    log(`  the tree at ${sha.slice(0, 8)}…`)
    const archive = execFileSync('git', ['archive', '--format=tar', sha, 'src', 'lexicons', 'scripts', 'package.json'], { cwd: REPO_ROOT, maxBuffer: 512 * 1024 * 1024 })
    execFileSync('tar', ['-x', '-C', dir], { input: archive })
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'junction')
    log('  its lexicon code…')
    execFileSync(process.execPath, [path.join(dir, 'scripts/lexicon-code.mjs')], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
    log('  its host, bundled…')
    const file = path.join(dir, '.test-host', 'at', 'host.mjs')
    await bundleHost(path.join(dir, 'src/host/bin.ts'), file)
    return { file, sha, remove }
  } catch (err) {
    remove()
    throw err
  }
}
