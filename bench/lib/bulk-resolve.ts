import { performance } from 'node:perf_hooks'
import { DEMO_PASSWORD } from '../../src/stack/seed.js'
import type { StackFile } from '../../src/shared/stack-file.js'
import type { Channel, ChannelInput, ChannelOutput } from '../../src/shared/ipc/contract.js'
import { call, mapLimit } from './xrpc.js'

/** Subjects resolved each way (issue 25: "one bulk resolve of 500 subjects … against 500 single resolves"). */
export const BULK_SUBJECTS = 500
/** What one person may have waiting for the moderators at once (host: WAITING_SUBJECTS_PER_REPORTER). */
const PER_REPORTER = 50

type Counts = { pds: number; host: number; plc: number; other: number }
export interface BulkResolveDeps {
  stack: StackFile
  ownerDid: string
  ipc: <C extends Channel>(channel: C, input: ChannelInput<C>) => Promise<ChannelOutput<C>>
  /** Resolves when the core has sent what it queued and caught up after it. */
  idle: () => Promise<void>
  snapshot: () => Counts
  delta: (a: Counts, b: Counts) => Omit<Counts, 'other'>
}
export interface ResolveFigures {
  host: number
  pds: number
  ms: number
}

/**
 * 2 × BULK_SUBJECTS reported accounts in a new open group (made-up DIDs, reported by
 * enough new members to stay under the host's bound per reporter; not timed), then:
 * BULK_SUBJECTS resolved one at a time as a moderator does from the queue (each its own
 * `groups.act`, sent and caught up before the next), and BULK_SUBJECTS resolved in one
 * bulk (`groups.actMany`, one note). Each counts the requests and wall time until every
 * resolve was sent and the core had caught up.
 */
export async function measureBulkResolve(d: BulkResolveDeps): Promise<{ single: ResolveFigures; bulk: ResolveFigures; subjects: number }> {
  const s = d.stack
  const suffix = Date.now().toString(36).slice(-5)
  const group = await d.ipc('groups.create', { accountDid: d.ownerDid, handle: `bulk-${suffix}.groups.test`, joinPolicy: 'open' })
  const total = 2 * BULK_SUBJECTS
  const reported = Array.from({ length: total }, (_, i) => `did:plc:bulkbench${suffix}${i.toString(36).padStart(4, '0')}`)
  const reporters = Math.ceil(total / PER_REPORTER)
  await mapLimit(
    Array.from({ length: reporters }, (_, i) => i),
    4,
    async (r) => {
      const handle = `br${r}-${suffix}.test`
      const { body } = await call<{ did: string; accessJwt: string }>(s.pds, 'com.atproto.server.createAccount', {
        body: { handle, password: DEMO_PASSWORD, email: `${handle}@convene.invalid` },
      })
      const asReporter = async (lxm: string, input: unknown) => {
        const token = await call<{ token: string }>(s.pds, 'com.atproto.server.getServiceAuth', {
          params: { aud: s.host.aud, lxm },
          headers: { authorization: `Bearer ${body.accessJwt}` },
        })
        await call(s.host.url, lxm, { body: input, headers: { authorization: `Bearer ${token.body.token}` } })
      }
      await asReporter('example.groups.requestJoin', { group: group.did })
      for (const did of reported.slice(r * PER_REPORTER, (r + 1) * PER_REPORTER)) {
        await asReporter('example.groups.createReport', { group: group.did, subject: { $type: 'example.groups.defs#subjectAccount', did }, reasonType: 'spam' })
      }
    },
  )
  await d.ipc('groups.refresh', { accountDid: d.ownerDid, groupDid: group.did })
  await d.idle()
  const resolve = (did: string) => ({ kind: 'subject.event' as const, key: did, subject: { did }, event: 'resolve' as const, note: 'Spam wave' })

  const measure = async (run: () => Promise<void>): Promise<ResolveFigures> => {
    const before = d.snapshot()
    const t0 = performance.now()
    await run()
    // Until every resolve was sent: a row waiting out a back-off (a busy host) counts in the time.
    const left = async () => (await d.ipc('outbox.list', {})).filter((o) => o.groupDid === group.did)
    for (let waited = 0; ; waited += 200) {
      await d.idle()
      const rows = await left()
      if (rows.length === 0) break
      if (waited > 120_000 || rows.some((o) => o.state === 'failed' || o.state === 'conflict')) throw new Error(`resolves did not go through: ${JSON.stringify(rows.slice(0, 3))}`)
      await new Promise((r) => setTimeout(r, 200))
    }
    const ms = performance.now() - t0
    const used = d.delta(before, d.snapshot())
    return { host: used.host, pds: used.pds, ms }
  }
  const single = await measure(async () => {
    for (const did of reported.slice(0, BULK_SUBJECTS)) {
      await d.ipc('groups.act', { accountDid: d.ownerDid, groupDid: group.did, action: resolve(did) })
      await d.idle()
    }
  })
  const bulk = await measure(async () => {
    await d.ipc('groups.actMany', { accountDid: d.ownerDid, groupDid: group.did, actions: reported.slice(BULK_SUBJECTS).map(resolve) })
  })
  const queue = await d.ipc('groups.subjects', { accountDid: d.ownerDid, groupDid: group.did, limit: 10 })
  if (queue.matched !== 0) throw new Error(`${queue.matched} subjects were left in the queue`)
  return { single, bulk, subjects: BULK_SUBJECTS }
}

/** The figures as the bench prints them: each way, then bulk against single as ratios. */
export function printBulkResolve({ single, bulk, subjects }: { single: ResolveFigures; bulk: ResolveFigures; subjects: number }) {
  const line = (label: string, f: ResolveFigures) => `${label.padEnd(34)} ${String(f.host).padStart(6)} ${String(f.pds).padStart(6)} ${f.ms.toFixed(0).padStart(9)}`
  console.log(`\nResolving ${subjects} reports (sent and caught up)`)
  console.log(`${''.padEnd(34)} ${'host'.padStart(6)} ${'PDS'.padStart(6)} ${'wall ms'.padStart(9)}`)
  console.log(line(`${subjects} single resolves`, single))
  console.log(line(`one bulk resolve of ${subjects}`, bulk))
  const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(2))
  console.log(`ratio bulk / single: host requests ${ratio(bulk.host, single.host)}, wall time ${ratio(bulk.ms, single.ms)}`)
}
