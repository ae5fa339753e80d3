import fs from 'node:fs'
import { createRequire } from 'node:module'

/**
 * The Electron executable, when one was installed. Machines that cannot download it
 * install the package with ELECTRON_SKIP_BINARY_DOWNLOAD=1 and have none.
 */
export function electronBinary(): string | null {
  try {
    const require = createRequire(import.meta.url)
    const bin = require('electron') as unknown as string
    return typeof bin === 'string' && fs.existsSync(bin) ? bin : null
  } catch {
    return null
  }
}
