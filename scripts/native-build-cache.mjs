// Keeps each native addon an install had to compile (better-sqlite3, keytar) in
// prebuild-install's own cache, so the next install of the same version for the same
// Node ABI, platform and architecture on this machine unpacks it instead of compiling.
//
// Why: both addons install with `prebuild-install || node-gyp rebuild`. Their prebuilt
// binaries live on GitHub, which machines without internet beyond the npm registry cannot
// reach, so every fresh clone compiled SQLite again (about 75 s of a fresh `npm test` on
// two cores). prebuild-install looks in `<npm cache>/_prebuilds/` before it downloads,
// under a name made from the download address (which carries all of the above); this
// writes the compiled binary there under that same name, with prebuild-install's own code,
// in the layout its tarballs have. A machine with an empty cache compiles, as before, and
// prebuild-install loads a cached binary before it keeps it: one that does not load is
// compiled again. The cache is npm's default one (or npm_config_cache's): a machine that
// configured npm to keep it elsewhere compiles each time, as before.
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { createRequire } from 'node:module'
import { pipeline } from 'node:stream/promises'

const root = path.resolve(import.meta.dirname, '..')
const addons = [
  { name: 'better-sqlite3', binary: 'build/Release/better_sqlite3.node' },
  { name: 'keytar', binary: 'build/Release/keytar.node' },
]

for (const addon of addons) {
  const dir = path.join(root, 'node_modules', addon.name)
  const binary = path.join(dir, addon.binary)
  if (!fs.existsSync(binary)) continue
  const fromAddon = createRequire(path.join(dir, 'package.json'))
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
  const prebuild = (file) => fromAddon(fromAddon.resolve(`prebuild-install/${file}`))
  const util = prebuild('util.js')
  const cached = util.cachedPrebuild(util.getDownloadUrl({ ...prebuild('rc.js')(pkg), pkg }))
  if (fs.existsSync(cached)) continue
  try {
    // Only a binary this Node loads is worth keeping (one built for Electron is not).
    createRequire(import.meta.url)(binary)
  } catch {
    continue
  }
  const tar = createRequire(fromAddon.resolve('prebuild-install/package.json'))('tar-fs')
  fs.mkdirSync(path.dirname(cached), { recursive: true })
  const partial = `${cached}.${process.pid}.tmp`
  await pipeline(tar.pack(dir, { entries: [addon.binary] }), zlib.createGzip(), fs.createWriteStream(partial))
  fs.renameSync(partial, cached)
  console.error(`[convene] kept the compiled ${addon.name} for the next install on this machine: ${cached}`)
}
