import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { Secp256k1Keypair } from '@atproto/crypto'
import { createServiceJwt } from '@atproto/xrpc-server'
import { freePort } from '../../src/node/free-port.js'
import { startPlc, type RunningPlc } from '../../src/stack/plc.js'
import { startHostProcess, type RunningHostProcess } from '../../src/stack/host-process.js'
import type { HostSeed } from '../../src/host/seed.js'
import { mintControlledDid } from '../support/plc-identity.js'
import { writeNewHostKeyFile } from '../../src/host/secrets/host-key.js'

/**
 * The host under fuzz: a PLC directory (in this process) and the group host as its own
 * process, as in production, with no PDS. The people calling it are did:plcs whose
 * signing keys the suite holds, so it signs real service auth itself (what a PDS's
 * getServiceAuth does: ES256K over the same claims), a fresh token for every request,
 * cheaply and without the PDS's own limits.
 */

export const PEOPLE = ['owner', 'admin', 'moderator', 'member', 'outsider'] as const
export type Person = (typeof PEOPLE)[number]

export interface FuzzPerson {
  did: string
  key: Secp256k1Keypair
}

export interface FuzzHost {
  url: string
  aud: string
  serviceDid: string
  plcUrl: string
  people: Record<Person, FuzzPerson>
  /** Owns the `writes` group, which only the group-credential fuzzing touches. */
  writer: FuzzPerson
  groups: { name: string; did: string; handle: string }[]
  writesGroup: string
  /** The host process's exit code, once it has exited (it never should). */
  exitCode(): number | null
  logTail(lines?: number): string
  /** A fresh service-auth token for `lxm`, signed with the person's own key. */
  serviceAuth(person: FuzzPerson, lxm: string, opts?: { aud?: string; exp?: number }): Promise<string>
  stop(): Promise<void>
}

const GROUPS = [
  { name: 'open', joinPolicy: 'open' },
  { name: 'approval', joinPolicy: 'approval' },
  { name: 'invite', joinPolicy: 'invite' },
] as const

export async function startFuzzHost(): Promise<FuzzHost> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-fuzz-'))
  const cleanups: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {})
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const plc: RunningPlc = await startPlc(await freePort())
    cleanups.push(() => plc.close())
    const people = {} as Record<Person, FuzzPerson>
    for (const name of PEOPLE) people[name] = await mintControlledDid(plc.url)
    const writer = await mintControlledDid(plc.url)

    const seed: HostSeed = {
      groups: [
        ...GROUPS.map(({ name, joinPolicy }) => ({
          handle: `${name}.groups.test`,
          displayName: `${name} group`,
          joinPolicy,
          owner: people.owner.did,
          members: [
            { did: people.admin.did, roles: ['admin'] },
            { did: people.moderator.did, roles: ['moderator'] },
            { did: people.member.did, roles: ['member'] },
          ],
        })),
        { handle: 'writes.groups.test', displayName: 'writes group', joinPolicy: 'invite', owner: writer.did },
      ],
    }
    const seedFile = path.join(dataDir, 'seed.json')
    fs.writeFileSync(seedFile, JSON.stringify(seed))
    const logFile = path.join(dataDir, 'host.log')
    // The host key beside the host's data directory, as the local network keeps it.
    const keyFile = path.join(dataDir, 'host.key')
    writeNewHostKeyFile(keyFile)
    const host: RunningHostProcess = await startHostProcess({
      // 0: the host binds a free port itself (no race with other processes for one).
      port: 0,
      plcUrl: plc.url,
      dataDir: path.join(dataDir, 'host'),
      seedFile,
      keyFile,
      logFile,
      // People's handles typed into the group sign-in resolve at the suite's own PLC
      // (which knows none): never by DNS or at an address outside this machine.
      extraArgs: ['--handle-resolver', plc.url],
    })
    cleanups.push(() => host.stop())
    let exitCode: number | null = null
    host.child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 : 1)
    })
    const groups = host.ready.groups.map((g) => ({ name: g.handle.split('.')[0]!, did: g.did, handle: g.handle }))
    return {
      url: host.ready.url,
      aud: host.ready.aud,
      serviceDid: host.ready.serviceDid,
      plcUrl: plc.url,
      people,
      writer,
      groups: groups.filter((g) => g.name !== 'writes'),
      writesGroup: groups.find((g) => g.name === 'writes')!.did,
      exitCode: () => exitCode,
      logTail: (lines = 40) => {
        try {
          return fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
        } catch {
          return ''
        }
      },
      serviceAuth: (person, lxm, opts = {}) =>
        createServiceJwt({ iss: person.did, aud: opts.aud ?? host.ready.aud, lxm, keypair: person.key, exp: opts.exp }),
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}

export interface RawRequest {
  method: string
  /** Path and query, e.g. `/xrpc/example.groups.getGroup?group=…`. */
  path: string
  headers: Record<string, string | string[]>
  body?: Buffer
}

export interface RawResponse {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
}

/** Node refuses to send control characters and code points past U+00FF in a header. */
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')

/**
 * One HTTP request with full control of method, headers and body (fetch would refuse
 * or rewrite some), on a fresh connection, failing after `timeoutMs` so a hang is a
 * failure and not a stuck test.
 */
export function send(baseUrl: string, req: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const url = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.map(headerSafe) : headerSafe(value)
    if (req.body) headers['content-length'] = String(req.body.length)
    const r = http.request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          clearTimeout(timer)
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') })
        })
        res.on('error', (err) => {
          clearTimeout(timer)
          reject(err)
        })
      },
    )
    const timer = setTimeout(() => {
      r.destroy(new Error(`no answer within ${timeoutMs} ms (a hang)`))
    }, timeoutMs)
    r.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    r.end(req.body)
  })
}
