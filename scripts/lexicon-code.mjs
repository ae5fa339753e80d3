// The TypeScript for the lexicons (src/node/lexicon/): made from lexicons/ by setup.sh
// on every npm script, never committed, regenerated only when what it is made from
// changed (the stamp below), so an unchanged checkout costs one hash of ~45 small files.
//
//   node scripts/lexicon-code.mjs            regenerate when the stamp differs (setup.sh)
//   node scripts/lexicon-code.mjs --force    regenerate now (`npm run codegen`)
//   node scripts/lexicon-code.mjs --into D   write a fresh tree into D
//   node scripts/lexicon-code.mjs --check    exit 1, saying why, unless the tree is what these
//                                            lexicons generate, untouched since (the staleness test)
//
// One tree, @atproto/lex-cli's gen-server, for all three users: the host and the local
// network's PDS extension register their handlers on its Server (typed per method), and
// the app's core takes from the same tree the schemas its client checks every answer
// against (lexicons.ts), the defs' types and validators, and each method's QueryParams,
// InputSchema and OutputSchema (derived by NSID in src/main/core/xrpc/methods.ts).
// gen-api's client class is not needed: validated-call.ts calls through @atproto/xrpc's
// XrpcClient with those schemas. Not @atproto/lex (`lex build`), though xrpc-server
// 0.13 takes its schemas (`server.add`): moving to it rewrites every handler's
// registration and the client's answer checking, and makes a package the app only has
// through the PDS (a dev dependency) a runtime one; docs/architecture.md says more.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '..')
const OUT = path.join(ROOT, 'src/node/lexicon')
const STAMP = path.join(OUT, '.stamp')
const LEX_CLI = path.join(ROOT, 'node_modules/@atproto/lex-cli')

/** Every lexicon file, relative to the root, in one order on every system. */
function lexiconFiles(dir = 'lexicons') {
  const out = []
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`
    if (entry.isDirectory()) out.push(...lexiconFiles(rel))
    else if (entry.name.endsWith('.json')) out.push(rel)
  }
  return out.sort()
}

/** What the tree is made from: the lexicons (names and contents), the generator's version, this script. */
function stamp(files) {
  const hash = createHash('sha256')
  for (const file of [...files, 'node_modules/@atproto/lex-cli/package.json', 'scripts/lexicon-code.mjs']) {
    hash.update(`${file}\0`).update(fs.readFileSync(path.join(ROOT, file))).update('\0')
  }
  return hash.digest('hex').slice(0, 16)
}

/** What the tree holds: every generated file (the stamp aside), by path and contents. */
function treeHash(dir, sub = '', hash = createHash('sha256')) {
  for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = path.posix.join(sub, entry.name)
    if (entry.isDirectory()) treeHash(dir, rel, hash)
    else if (rel !== '.stamp') hash.update(`${rel}\0`).update(fs.readFileSync(path.join(dir, rel))).update('\0')
  }
  return sub ? hash : hash.digest('hex').slice(0, 16)
}

function generate(files, into) {
  // lex-cli's own bin: @atproto/lex (a dependency of the PDS) installs a `lex` command too.
  execFileSync(process.execPath, [path.join(LEX_CLI, 'bin.js'), 'gen-server', '--yes', into, ...files], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
}

const args = process.argv.slice(2)
const files = lexiconFiles()
// The stamp's two lines: what the tree was made from, and what it held when made.
const [madeFrom = '', held = ''] = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').split('\n') : []
if (args[0] === '--into') {
  generate(files, path.resolve(args[1]))
} else if (args[0] === '--check') {
  // The tree was generated from exactly these lexicons by this generator and script (the
  // first line), and nothing in it changed since (the second): the same tree a fresh
  // generation makes, checked without generating (which takes half a minute).
  const problem =
    madeFrom !== stamp(files) ? 'it was made from other lexicons (or another generator) than those there now'
    : held !== treeHash(OUT) ? 'a generated file was changed, added or removed by hand since it was made'
    : null
  if (problem) {
    console.error(`[convene] src/node/lexicon/ is stale: ${problem}. Run \`npm run codegen\`.`)
    process.exit(1)
  }
} else {
  const want = stamp(files)
  if (args[0] === '--force' || madeFrom !== want || !held) {
    console.error('[convene] generating the lexicons’ TypeScript (src/node/lexicon/)')
    // Written beside it and moved into place: an interrupted run never leaves half a tree
    // that a matching stamp would then keep.
    const next = `${OUT}.next`
    fs.rmSync(next, { recursive: true, force: true })
    generate(files, next)
    fs.writeFileSync(path.join(next, '.stamp'), `${want}\n${treeHash(next)}\n`)
    fs.rmSync(OUT, { recursive: true, force: true })
    fs.renameSync(next, OUT)
  }
}
