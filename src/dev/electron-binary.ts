import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

/**
 * The Electron executable, when one was installed. Machines that cannot download it
 * install the package with ELECTRON_SKIP_BINARY_DOWNLOAD=1 and have none. We look for
 * it without `require('electron')`, which in recent versions tries to download the
 * binary on first use.
 */
export function electronBinary(): string | null {
  try {
    const require = createRequire(import.meta.url)
    const dir = path.dirname(require.resolve('electron/package.json'))
    const pathFile = path.join(dir, 'path.txt')
    if (!fs.existsSync(pathFile)) return null
    const bin = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim())
    return fs.existsSync(bin) ? bin : null
  } catch {
    return null
  }
}
