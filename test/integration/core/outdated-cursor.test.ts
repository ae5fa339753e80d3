import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { recordRequests } from '../../support/request-log.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'
import { changeLogSeqs } from '../../support/host-db.js'

/**
 * The host keeps its change log for a while only (--change-log-days; 4 seconds here).
 * An app away longer than that holds cursors older than what the host keeps: listChanges
 * refuses them, and the app reads the group whole, takes a fresh cursor, and goes back to
 * one request per group, for a busy group and a quiet one alike.
 */
const KEEP_S = 4
const net = useLocalNetwork({ hostChangeLogDays: KEEP_S / 86_400 })
let app: CoreHarness
let owner: string

useSignedInCore(net, { groups: ['open', 'approval'] }, (signedIn) => ({ app, owner } = signedIn))

const seen = recordRequests()

/** The host methods called while `fn` ran, in order. */
async function hostCalls(fn: () => Promise<unknown>): Promise<string[]> {
  const from = seen.length
  await fn()
  return seen
    .slice(from)
    .filter((r) => r.origin === net.stack.host.url)
    .map((r) => r.method)
}

describe('a change-log cursor older than the host keeps', () => {
  it('makes the app read the group whole, and the next sync is one request per group again', async () => {
    const open = net.group('open').did
    const outsider = net.as('outsider').did
    await app.call('sync.now', {})

    // While the app is away: someone joins, and that entry ages out behind a newer one.
    expect((await net.as('outsider').call('example.groups.requestJoin', { body: { group: open } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    await new Promise((resolve) => setTimeout(resolve, (KEEP_S + 1) * 1000))
    expect((await net.as('owner').call('example.groups.configureGroup', { body: { group: open, description: 'Later' } })).status).toBe(200)
    await eventually(async () => (await changeLogSeqs(net.running)).length === 1)

    const recovering = await hostCalls(() => app.call('sync.now', {}))
    // Refused, so read whole: the join it never saw in the log is there.
    expect(recovering).toContain('example.groups.getGroup')
    expect(recovering).toContain('example.groups.listMembers')
    expect((await app.call('groups.members', { accountDid: owner, groupDid: open, q: outsider })).items.some((m) => m.did === outsider)).toBe(true)

    // The fresh cursors work, the quiet group's too.
    expect(await hostCalls(() => app.call('sync.now', {}))).toEqual(['example.groups.listChanges', 'example.groups.listChanges'])
  })
})
