import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../support/local-network.js'
import { startHost, type RunningHost } from '../../src/host/server.js'
import { createHostLogger } from '../../src/host/log/logger.js'
import { parseRateLimits } from '../../src/host/limits/rate-limits.js'
import { createDatabaseAt } from '../../src/stack/postgres-cluster.js'
import type { HostSeed } from '../../src/host/seed.js'

/**
 * Several host processes started together on a new PostgreSQL database (issue 18): one
 * of them makes what a first start makes (the service DID, the token secrets, the seeded
 * groups) and the others find it, so they all speak for one host. Before, two first
 * starts each minted a service DID, and the slower one failed on the seed.
 * Runs in the PostgreSQL run of `npm test` (vitest.postgres.config.ts).
 */
const net = useLocalNetwork()
const hosts: RunningHost[] = []
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-first-start-'))
afterAll(async () => {
  for (const h of hosts) await h.close()
  fs.rmSync(work, { recursive: true, force: true })
})

describe('host processes started together on a new database', () => {
  it('agree on one service DID and one set of seeded groups, and all serve', async () => {
    const admin = process.env.CONVENE_TEST_PG_URL
    expect(admin, 'the PostgreSQL run sets CONVENE_TEST_PG_URL').toBeTruthy()
    const db = await createDatabaseAt(admin!)
    const seedFile = path.join(work, 'seed.json')
    const seed: HostSeed = {
      groups: ['one', 'two', 'three'].map((n) => ({ handle: `${n}-${crypto.randomBytes(3).toString('hex')}.groups.test`, joinPolicy: 'open', owner: net.as('owner').did })),
    }
    fs.writeFileSync(seedFile, JSON.stringify(seed))
    const hostKey = crypto.randomBytes(32)
    const quiet = createHostLogger({ level: 'silent' })
    const start = (i: number) =>
      startHost(
        {
          port: 0, bind: '127.0.0.1', publicUrl: '', dataDir: path.join(work, `data-${i}`), db, plcUrl: net.stack.plc, seedFile,
          handleDomains: ['groups.test'], rateLimits: parseRateLimits(undefined), maxGroupsPerAccount: 100, allowLoopbackPeers: false, hostKey,
        },
        quiet,
      )
    const started = await Promise.allSettled([0, 1, 2].map(start))
    for (const s of started) if (s.status === 'fulfilled') hosts.push(s.value)
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(['started', 'started', 'started'])

    expect(new Set(hosts.map((h) => h.ctx.identity.did)).size).toBe(1)
    const seeded = hosts.map((h) => JSON.stringify(h.groups))
    expect(new Set(seeded).size).toBe(1)
    expect(hosts[0]!.groups.map((g) => g.handle)).toEqual(seed.groups.map((g) => g.handle))
    for (const h of hosts) {
      const res = await fetch(`${h.url}/xrpc/_health`)
      expect(res.status).toBe(200)
    }
  })
})
