import { afterAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { recordRequests } from '../../support/request-log.js'
import { CoreHarness, eventually } from '../../support/core-harness.js'
import { closeSharedBrowser } from '../../support/browser-sign-in.js'
import type { SubjectItem } from '../../../src/shared/ipc/views.js'

/**
 * "I'm on it" (issue 23, Ozone's moderator assignment) between two moderators' apps,
 * each holding a live connection to the real host: one takes a report, and the other's
 * queue says who has it without asking the host's change log; releasing it shows too;
 * taking one someone else has is refused in plain words.
 */
const net = useLocalNetwork()
const cores: CoreHarness[] = []
afterAll(async () => {
  for (const c of cores) await c.stop()
  await closeSharedBrowser()
})

const seen = recordRequests()

const group = () => net.group('open').did

async function moderatorApp(name: 'owner' | 'moderator') {
  const core = await CoreHarness.start(net.stack, undefined, { liveUpdates: true })
  cores.push(core)
  const did = await core.signIn(name)
  await core.call('groups.add', { accountDid: did, ref: group() })
  await eventually(async () => (await core.call('sync.status', {})).live[0]?.state === 'live')
  return { core, did }
}
const queued = async (app: { core: CoreHarness; did: string }, key: string) =>
  (await app.core.call('groups.subjects', { accountDid: app.did, groupDid: group() })).items.find((s) => s.key === key)

describe('moderator assignment across two apps', () => {
  it('one moderator takes a report; the other’s queue shows who has it, through the live connection; releasing shows too', async () => {
    const owner = await moderatorApp('owner')
    const moderator = await moderatorApp('moderator')
    const reported = net.as('outsider').did
    const report = await net.as('member').call('example.groups.createReport', {
      body: { group: group(), subject: { $type: 'example.groups.defs#subjectAccount', did: reported }, reasonType: 'com.atproto.moderation.defs#reasonSpam', reason: 'adverts' },
    })
    expect(report.status).toBe(200)
    for (const app of [owner, moderator]) await eventually(() => queued(app, reported), 5_000)
    const subject = (await queued(moderator, reported))!

    const from = seen.length
    await moderator.core.call('groups.act', { accountDid: moderator.did, groupDid: group(), action: { kind: 'subject.event', key: subject.key, subject: subject.subject, event: 'assign' } })
    // Shown at once in the moderator's own queue (queued), then confirmed by the host.
    expect((await queued(moderator, reported))?.assignedTo?.did).toBe(moderator.did)
    const seenByOwner = await eventually(async () => {
      const s = await queued(owner, reported)
      return s?.assignedTo?.did === moderator.did && s
    }, 5_000)
    expect(Date.parse(seenByOwner.assignedTo!.endAt)).toBeGreaterThan(Date.now() + 25 * 60_000)
    // The owner's app asked no change log: the stream said the subject moved.
    const ownerAsked = seen.slice(from).map((r) => r.method)
    expect(ownerAsked.filter((m) => m === 'example.groups.listChanges').length).toBeLessThanOrEqual(1) // the moderator's own confirmation
    // The host keeps it in the subject's history, shown in the pane.
    const pane = await owner.core.call('groups.subject', { accountDid: owner.did, groupDid: group(), key: subject.key })
    expect(pane.assignedTo?.did).toBe(moderator.did)
    expect(pane.history.some((h) => h.event === 'assign' && h.createdBy === moderator.did)).toBe(true)

    // Someone else has it: taking it is refused plainly, and nothing is applied twice.
    await owner.core.call('groups.act', { accountDid: owner.did, groupDid: group(), action: { kind: 'subject.event', key: subject.key, subject: subject.subject, event: 'assign' } })
    const refused = await eventually(async () => (await owner.core.call('outbox.list', {})).find((o) => o.state === 'conflict'), 10_000)
    expect(refused.detail).toContain('Another moderator took this report first')
    await eventually(async () => (await queued(owner, reported))?.assignedTo?.did === moderator.did, 5_000)

    // Released by hand: the owner's queue shows nobody has it.
    await moderator.core.call('groups.act', { accountDid: moderator.did, groupDid: group(), action: { kind: 'subject.event', key: subject.key, subject: subject.subject, event: 'unassign' } })
    expect((await queued(moderator, reported))?.assignedTo).toBeNull()
    await eventually(async () => {
      const s: SubjectItem | undefined = await queued(owner, reported)
      return s && s.assignedTo === null
    }, 5_000)
  })

  it('a moderator pins a report to the top of the queue: the other sees it first, live, with who pinned it; unpinned or resolved, it takes its place again', async () => {
    const owner = await moderatorApp('owner')
    const moderator = await moderatorApp('moderator')
    const report = async (did: string) =>
      expect((await net.as('member').call('example.groups.createReport', { body: { group: group(), subject: { $type: 'example.groups.defs#subjectAccount', did }, reasonType: 'com.atproto.moderation.defs#reasonSpam' } })).status).toBe(200)
    const first = net.as('outsider').did
    const later = net.as('outsider2').did
    await report(first)
    await report(later)
    const order = async (app: { core: CoreHarness; did: string }) => (await app.core.call('groups.subjects', { accountDid: app.did, groupDid: group(), sort: 'newestReport' })).items.map((s) => s.key).filter((k) => k === first || k === later)
    for (const app of [owner, moderator]) await eventually(async () => (await order(app)).length === 2, 5_000)
    expect(await order(owner)).toEqual([later, first])

    const subject = (await queued(moderator, first))!
    const pin = (event: 'pin' | 'unpin' | 'resolve') => moderator.core.call('groups.act', { accountDid: moderator.did, groupDid: group(), action: { kind: 'subject.event', key: subject.key, subject: subject.subject, event } })
    await pin('pin')
    // At once in the moderator's own queue, and within the live connection's reach in the owner's, whatever the order asked.
    expect(await order(moderator)).toEqual([first, later])
    const seenByOwner = await eventually(async () => {
      const s = await queued(owner, first)
      return s?.pinned && s
    }, 5_000)
    expect(seenByOwner.pinned).toMatchObject({ did: moderator.did })
    expect(await order(owner)).toEqual([first, later])
    const pane = await owner.core.call('groups.subject', { accountDid: owner.did, groupDid: group(), key: subject.key })
    expect(pane.pinned?.did).toBe(moderator.did)
    expect(pane.history.some((h) => h.event === 'pin' && h.createdBy === moderator.did)).toBe(true)

    await pin('unpin')
    await eventually(async () => (await queued(owner, first))?.pinned === null && (await order(owner))[0] === later, 5_000)
    // Pinned again and then resolved: a decision unpins.
    await pin('pin')
    await eventually(async () => !!(await queued(owner, first))?.pinned, 5_000)
    await pin('resolve')
    await eventually(async () => (await moderator.core.call('outbox.list', {})).length === 0, 10_000)
    const host = await net.as('moderator').call<{ subject: { pinned?: unknown; status: string } }>('example.groups.getSubject', { params: { group: group(), subject: first } })
    expect(host.body.subject).toMatchObject({ status: 'resolved' })
    expect(host.body.subject.pinned).toBeUndefined()
  })
})
