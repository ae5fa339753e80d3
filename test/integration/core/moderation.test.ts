import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

useSignedInCore(net, { groups: ['open'] }, (signedIn) => ({ app, owner } = signedIn))

const SPAM = 'com.atproto.moderation.defs#reasonSpam'
const RUDE = 'com.atproto.moderation.defs#reasonRude'

describe('moderation through the core (issue 17; real PDS sign-in, real host)', () => {
  it('files a report through the outbox, and the queue shows its reason and words, filtered and ordered', async () => {
    const groupDid = net.group('open').did
    const rude = net.as('outsider').did
    const spammer = net.as('outsider2').did
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'report.create', subject: { did: rude }, reasonType: RUDE, reason: 'Shouted at a newcomer' } })
    for (const who of ['member', 'admin'] as const) {
      await net.as(who).call('example.groups.createReport', { body: { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: spammer }, reasonType: SPAM, reason: `Ads, says ${who}` } })
    }
    await eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state === 'done'))
    await app.call('sync.now', {})

    const queue = await app.call('groups.subjects', { accountDid: owner, groupDid })
    expect(queue.items.find((s) => s.key === rude)).toMatchObject({ reasonTypes: [RUDE], lastReport: { reasonType: RUDE, reason: 'Shouted at a newcomer' }, takenDown: false })
    expect((await app.call('groups.subjects', { accountDid: owner, groupDid, reasonType: SPAM })).items.map((s) => s.key)).toEqual([spammer])
    expect((await app.call('groups.subjects', { accountDid: owner, groupDid, sort: 'mostReports' })).items.map((s) => s.key)).toEqual([spammer, rude])
    expect((await app.call('groups.subjects', { accountDid: owner, groupDid, subjectKind: 'record' })).items).toEqual([])
  })

  it('opens a subject with every report and its history, and acts on it through the outbox', async () => {
    const groupDid = net.group('open').did
    const spammer = net.as('outsider2').did
    const detail = await app.call('groups.subject', { accountDid: owner, groupDid, key: spammer })
    expect(detail.shown).toMatchObject({ kind: 'account', did: spammer })
    expect(detail.reports.map((r) => [r.reasonType, r.reason, r.reportedBy])).toEqual([
      [SPAM, 'Ads, says admin', net.as('admin').did],
      [SPAM, 'Ads, says member', net.as('member').did],
    ])
    expect(detail.history.map((h) => h.event)).toEqual(['report', 'report'])

    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'subject.event', key: spammer, subject: { did: spammer }, event: 'comment', note: 'Looking into it' } })
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'subject.event', key: spammer, subject: { did: spammer }, event: 'escalate' } })
    // The queue shows the escalation at once, before the host has it.
    expect((await app.call('groups.subjects', { accountDid: owner, groupDid })).items.find((s) => s.key === spammer)?.status).toBe('escalated')
    const after = await eventually(async () => {
      const d = await app.call('groups.subject', { accountDid: owner, groupDid, key: spammer })
      return d.history.length === 4 ? d : null
    })
    expect(after.status).toBe('escalated')
    expect(after.history.slice(0, 2).map((h) => [h.event, h.note, h.createdBy])).toEqual([
      ['escalate', null, owner],
      ['comment', 'Looking into it', owner],
    ])
  })

  it('reads a subject’s history past the host’s first page, and finds a resolved subject again to reopen it', async () => {
    const groupDid = net.group('open').did
    const spammer = net.as('outsider2').did
    const subject = { $type: 'example.groups.defs#subjectAccount', did: spammer }
    for (let batch = 0; batch < 110; batch += 10) {
      const sent = await Promise.all(
        Array.from({ length: 10 }, (_, i) => net.as('admin').call('example.groups.emitModerationEvent', { body: { group: groupDid, subject, event: 'comment', note: `Note ${batch + i}` } })),
      )
      expect(sent.map((r) => r.status)).toEqual(Array(10).fill(200))
    }
    const detail = await app.call('groups.subject', { accountDid: owner, groupDid, key: spammer })
    // 2 reports, a comment and an escalation from before, and the 110 notes: all of it, oldest last.
    expect(detail.history).toHaveLength(114)
    expect(detail.history.at(-1)).toMatchObject({ event: 'report' })
    expect(detail.olderOnHost).toBe(false)
    expect(detail.reportCount).toBe(2)

    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'subject.event', key: spammer, subject: { did: spammer }, event: 'resolve', note: 'Warned' } })
    await eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state === 'done'))
    // Someone else's report makes the queue be read again, and the resolved subject leave the cache.
    const other = { $type: 'example.groups.defs#subjectAccount', did: net.as('admin').did }
    expect((await net.as('member').call('example.groups.createReport', { body: { group: groupDid, subject: other, reasonType: RUDE } })).status).toBe(200)
    await app.call('sync.now', {})
    expect((await app.call('groups.subjects', { accountDid: owner, groupDid })).items.map((s) => s.key)).toContain(net.as('admin').did)
    expect((await app.call('groups.subjects', { accountDid: owner, groupDid })).items.map((s) => s.key)).not.toContain(spammer)
    // Resolved subjects come from the host, since the cache keeps the queue only.
    const resolved = await app.call('groups.resolvedSubjects', { accountDid: owner, groupDid })
    expect(resolved.items.find((s) => s.key === spammer)).toMatchObject({ status: 'resolved', subject: { did: spammer }, reportCount: 2, pending: false })

    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'subject.update', key: spammer, subject: { did: spammer }, status: 'open', note: 'Another look' } })
    await eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state === 'done'))
    await app.call('sync.now', {})
    expect((await app.call('groups.subjects', { accountDid: owner, groupDid })).items.find((s) => s.key === spammer)?.status).toBe('open')
    expect((await app.call('groups.resolvedSubjects', { accountDid: owner, groupDid })).items.map((s) => s.key)).not.toContain(spammer)
  })

  it('marks a taken-down event in the moderator’s calendar, and unmarks it when restored', async () => {
    const groupDid = net.group('open').did
    const done = () => eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state === 'done'))
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'event.create', event: { name: 'Cheap watches', startsAt: new Date(Date.now() + 86_400_000).toISOString() } } })
    await done()
    await app.call('sync.now', {})
    const event = (await app.call('groups.events', { accountDid: owner, groupDid })).find((e) => e.name === 'Cheap watches')!
    expect(event).toMatchObject({ takenDown: false })
    expect(event.uri).toMatch(/^at:\/\//)
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'report.create', subject: { uri: event.uri }, reasonType: SPAM } })
    await done()
    await app.call('sync.now', {})
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'subject.event', key: event.uri, subject: { uri: event.uri }, event: 'takedown' } })
    await done()
    await app.call('sync.now', {})
    expect((await app.call('groups.events', { accountDid: owner, groupDid })).find((e) => e.rkey === event.rkey)).toMatchObject({ takenDown: true })
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'subject.event', key: event.uri, subject: { uri: event.uri }, event: 'reverseTakedown' } })
    await done()
    await app.call('sync.now', {})
    expect((await app.call('groups.events', { accountDid: owner, groupDid })).find((e) => e.rkey === event.rkey)).toMatchObject({ takenDown: false })
  })

  it('answers a subject nobody reported in plain words', async () => {
    const env = await app.raw('groups.subject', { accountDid: owner, groupDid: net.group('open').did, key: net.as('moderator').did })
    expect(env).toMatchObject({ ok: false })
  })
})
