import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { startStack } from '../../src/stack/stack.js'
import { buildHostBundle, HOST_BUNDLE_ENV } from '../../src/stack/host-bundle.js'
import { writeStackFile } from '../../src/stack/stack-file-io.js'
import { electronBinary } from '../../src/dev/electron-binary.js'
import { ELECTRON_SKIP_REASON } from './electron-skip.js'
import type { FullConfig } from '@playwright/test'
import { E2E_STACKS_ENV } from './worker-network.js'

/**
 * One local network per Playwright worker, each with a small control server on loopback
 * that lets a test take that network's group host down and bring it back
 * (support/stack-control.ts), as the core's integration tests do in-process. A worker's
 * tests use its own network only (support/worker-network.ts), so one worker taking its
 * host down never touches another's test; each test gets its own app and people
 * (fixtures.ts).
 */
export default async function globalSetup(config: FullConfig) {
  if (!electronBinary()) console.log(`[electron suite] skipped: ${ELECTRON_SKIP_REASON}`)
  const networks: Awaited<ReturnType<typeof startNetwork>>[] = []
  // The hosts, and every restart a test asks for, run the run's bundle, as Vitest's do
  // (src/stack/host-bundle.ts): half the CPU of a start through tsx.
  const bundle = await buildHostBundle()
  process.env[HOST_BUNDLE_ENV] = bundle.file
  try {
    // One after another: two PDS start-ups side by side only make each slower on two cores.
    for (let i = 0; i < Math.max(1, config.workers); i++) networks.push(await startNetwork())
  } catch (err) {
    for (const n of networks) await n.stop()
    bundle.remove()
    throw err
  }
  process.env[E2E_STACKS_ENV] = JSON.stringify(networks.map((n) => ({ stackFile: n.stackFile, control: n.control })))
  return async () => {
    for (const n of networks) await n.stop()
    bundle.remove()
  }
}

/** A local network, its stack file in a folder of its own, and its control server. */
async function startNetwork() {
  const stack = await startStack()
  const stackFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'convene-e2e-')), 'stack.json')
  writeStackFile(stackFile, stack.file)

  let bringBack: (() => void) | null = null
  let restarting: Promise<void> | null = null
  const control = http.createServer((req, res) => {
    const reply = (status: number, text: string) => res.writeHead(status, { 'content-type': 'text/plain' }).end(text)
    if (req.method !== 'POST') return reply(405, 'POST only')
    if (req.url === '/host/down' || req.url === '/host/hang') {
      if (bringBack) return reply(409, 'the host is already down')
      const back = new Promise<void>((resolve) => (bringBack = resolve))
      let isDown!: () => void
      const down = new Promise<void>((resolve) => (isDown = resolve))
      const hang = req.url === '/host/hang'
      restarting = stack.restartHost({
        whileDown: async () => {
          // Hung: something on the host's port takes every connection and never answers.
          const hung = hang ? await acceptAndNeverAnswer(Number(new URL(stack.file.host.url).port)) : null
          isDown()
          await back
          await hung?.close()
        },
      })
      restarting.catch((err: unknown) => reply(500, String(err)))
      return void down.then(() => reply(200, 'down'))
    }
    if (req.url === '/host/up') {
      if (!bringBack) return reply(409, 'the host is not down')
      bringBack()
      bringBack = null
      return void restarting!.then(
        () => reply(200, 'up'),
        (err: unknown) => reply(500, String(err)),
      )
    }
    reply(404, 'unknown control')
  })
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve))

  return {
    stackFile,
    control: `http://127.0.0.1:${(control.address() as { port: number }).port}`,
    async stop() {
      bringBack?.()
      await restarting?.catch(() => {})
      control.close()
      await stack.stop()
      fs.rmSync(path.dirname(stackFile), { recursive: true, force: true })
    },
  }
}

/** A server on `port` that accepts connections and never answers (a hung host); close() lets the port go. */
async function acceptAndNeverAnswer(port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => void sockets.add(socket))
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve))
  return {
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
