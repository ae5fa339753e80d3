import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { startStack, REPO_ROOT } from '../stack/stack.js'
import { launchLoopbackApp } from '../main/loopback/launch.js'
import { electronBinary } from './electron-binary.js'
import { KeychainSecretStore } from '../main/core/secrets/keychain-secret-store.js'
import { DEFAULT_STACK_FILE, removeStackFile, writeStackFile } from '../stack/stack-file-io.js'

/**
 * `npm start`: the app from source against the local network with its demo data.
 * Starts the network, then Electron where its binary exists, else the loopback shell.
 */
async function main() {
  const { values } = parseArgs({ options: { port: { type: 'string' }, 'loopback': { type: 'boolean' } } })
  const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version

  console.log('Starting the local network (PLC, PDS, group host)…')
  const stack = await startStack({ log: (l) => console.log(`  ${l}`) })
  const stackFile = DEFAULT_STACK_FILE
  writeStackFile(stackFile, stack.file)
  const stops: (() => Promise<void>)[] = [async () => removeStackFile(stackFile), stack.stop]

  // The local network is new at every start, so yesterday's demo sign-ins and caches
  // point at servers that no longer exist: keep them apart from real ones, and fresh.
  const keychainService = 'Convene (local network)'
  const dataDir = path.join(REPO_ROOT, '.stack', 'app-data')
  fs.rmSync(dataDir, { recursive: true, force: true })
  const secrets = new KeychainSecretStore(keychainService)
  for (const key of await secrets.keys().catch(() => [])) await secrets.delete(key)
  const appEnv = { ...process.env, CONVENE_STACK_FILE: stackFile, CONVENE_KEYCHAIN_SERVICE: keychainService, CONVENE_DATA_DIR: dataDir }

  const electron = values.loopback ? null : electronBinary()
  if (electron) {
    const child = spawn(electron, [REPO_ROOT], { stdio: 'inherit', env: appEnv })
    child.on('exit', () => void shutdown())
  } else {
    console.log('No Electron binary on this machine, so Convene runs in the loopback shell: same app, in your browser.')
    const app = await launchLoopbackApp({ stackFile, version, keychainService, dataDir, port: values.port ? Number(values.port) : undefined })
    stops.unshift(app.close)
    console.log(`\nOpen Convene: ${app.shell.launchUrl}\n`)
    console.log(`Demo accounts: ${stack.file.accounts.map((a) => a.handle).join(', ')} (password "${stack.file.accounts[0]!.password}").`)
    console.log('Press Ctrl-C to stop.')
  }

  let stopping = false
  async function shutdown() {
    if (stopping) return
    stopping = true
    for (const stop of stops) await stop().catch(() => {})
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

main().catch((err) => {
  console.error(`Convene could not start: ${(err as Error).message}`)
  process.exit(1)
})
