import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startStack } from '../../src/stack/stack.js'
import { writeStackFile } from '../../src/stack/stack-file-io.js'
import { launchLoopbackApp } from '../../src/main/loopback/launch.js'

/**
 * One local network and one app (the core behind the loopback shell) for the run, as
 * `npm start` would launch them. Tests read the launch URL from the environment.
 */
export default async function globalSetup() {
  const stack = await startStack()
  const stackFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'convene-e2e-')), 'stack.json')
  writeStackFile(stackFile, stack.file)
  const app = await launchLoopbackApp({ stackFile, version: '0.0.0-e2e' })
  process.env.CONVENE_E2E_URL = app.shell.launchUrl
  process.env.CONVENE_E2E_ORIGIN = app.shell.origin
  process.env.CONVENE_E2E_STACK = stackFile
  return async () => {
    await app.close()
    await stack.stop()
    fs.rmSync(path.dirname(stackFile), { recursive: true, force: true })
  }
}
