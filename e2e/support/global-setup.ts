import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startStack } from '../../src/stack/stack.js'
import { writeStackFile } from '../../src/stack/stack-file-io.js'
import { electronBinary } from '../../src/dev/electron-binary.js'
import { ELECTRON_SKIP_REASON } from './electron-skip.js'

/** One local network for the whole run; each test gets its own app (see fixtures.ts). */
export default async function globalSetup() {
  if (!electronBinary()) console.log(`[electron suite] skipped: ${ELECTRON_SKIP_REASON}`)
  const stack = await startStack()
  const stackFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'convene-e2e-')), 'stack.json')
  writeStackFile(stackFile, stack.file)
  process.env.CONVENE_E2E_STACK = stackFile
  return async () => {
    await stack.stop()
    fs.rmSync(path.dirname(stackFile), { recursive: true, force: true })
  }
}
