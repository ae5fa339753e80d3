import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { moderationEvents } from '../../support/host-db.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('open').did
const account = (did: string) => ({ $type: 'example.groups.defs#subjectAccount', did })
const record = (uri: string, cid?: string) => ({ $type: 'example.groups.defs#subjectRecord', uri, ...(cid ? { cid } : {}) })
const CID = 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm'

const report = (by: Parameters<typeof net.as>[0], subject: unknown, extra: Record<string, unknown> = {}) =>
  as(by).call('example.groups.createReport', { body: { group: group(), subject, reasonType: 'spam', ...extra } })
const queue = async (status?: string) =>
  (await as('moderator').call<{ subjects: Record<string, unknown>[] }>('example.groups.listSubjects', { params: { group: group(), status } })).body.subjects

describe('example.groups.createReport', () => {
  it("opens a subject for the moderators on a member's report", async () => {
    const spammer = as('outsider').did
    expect(await report('member', account(spammer), { reason: 'Posts ads' })).toMatchObject({ status: 200, body: {} })
    const subjects = await queue('open')
    expect(subjects).toEqual([expect.objectContaining({ subject: account(spammer), status: 'open', reportCount: 1 })])
    expect(subjects[0]!.createdAt).toBe(subjects[0]!.updatedAt)
    expect(moderationEvents(net.running, group())).toEqual([
      { subjectKey: spammer, kind: 'report', data: { reasonType: 'spam', reason: 'Posts ads' }, createdBy: as('member').did },
    ])
  })

  it('adds later reports to the same subject', async () => {
    expect((await report('admin', account(as('outsider').did), { reasonType: 'harassment' })).status).toBe(200)
    const subjects = await queue()
    expect(subjects).toHaveLength(1)
    expect(subjects[0]).toMatchObject({ subject: account(as('outsider').did), reportCount: 2, status: 'open' })
  })

  it('reopens a resolved subject when it is reported again; one person’s repeated reports count once', async () => {
    const subject = account(as('outsider').did)
    expect((await as('moderator').call('example.groups.updateSubject', { body: { group: group(), subject, status: 'resolved' } })).status).toBe(200)
    expect(await queue('open')).toEqual([])
    expect((await report('member', subject, { reason: 'Still posting ads' })).status).toBe(200)
    expect(await queue('open')).toEqual([expect.objectContaining({ subject, reportCount: 2, lastReport: expect.objectContaining({ reason: 'Still posting ads' }) })])
    // Every report is kept, for the moderators to read; the count is of people.
    const detail = await as('moderator').call<{ reports: unknown[] }>('example.groups.getSubject', { params: { group: group(), subject: as('outsider').did } })
    expect(detail.body.reports).toHaveLength(3)
  })

  it("takes atproto's reason types with free text, and shows moderators the reporter", async () => {
    const target = account(as('owner').did)
    const reasonType = 'com.atproto.moderation.defs#reasonMisleading'
    expect((await report('member', target, { reasonType, reason: 'Says the picnic is cancelled; it is not' })).status).toBe(200)
    const subject = (await queue()).find((s) => (s.subject as { did?: string }).did === as('owner').did)
    expect(subject).toMatchObject({
      reportCount: 1,
      reasonTypes: [reasonType],
      lastReport: { reasonType, reason: 'Says the picnic is cancelled; it is not', reportedBy: as('member').did },
    })
    // The reported person, here an owner who reads the queue, is not told who reported them.
    const asOwner = await as('owner').call<{ subjects: Record<string, unknown>[] }>('example.groups.listSubjects', { params: { group: group() } })
    const own = asOwner.body.subjects.find((s) => (s.subject as { did?: string }).did === as('owner').did)
    expect(own).toMatchObject({ lastReport: { reasonType, reason: 'Says the picnic is cancelled; it is not' } })
    expect(JSON.stringify(own)).not.toContain(as('member').did)
  })

  it('takes a record as the subject, keyed by its address', async () => {
    const uri = `at://${as('outsider').did}/app.bsky.feed.post/3kabc`
    expect((await report('member', record(uri, CID))).status).toBe(200)
    expect((await report('moderator', record(uri))).status).toBe(200)
    const subjects = await queue()
    expect(subjects.find((s) => (s.subject as { uri?: string }).uri === uri)).toMatchObject({ subject: record(uri, CID), reportCount: 2 })
  })

  it('shows reports only to moderators in the change log', async () => {
    const kinds = async (name: 'member' | 'moderator') =>
      (await as(name).call<{ changes: { kind: string }[] }>('example.groups.listChanges', { params: { group: group(), limit: 100 } })).body.changes.map((c) => c.kind)
    expect((await kinds('moderator')).filter((k) => k === 'subject.reported')).toHaveLength(6)
    expect((await kinds('member')).filter((k) => k.startsWith('subject.'))).toEqual([])
  })

  it('refuses reports from non-members: Forbidden', async () => {
    const res = await report('outsider2', account(as('member').did))
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await queue()).some((s) => (s.subject as { did?: string }).did === as('member').did)).toBe(false)
  })

  it('answers InvalidRequest for a malformed subject or reason, and an unknown group', async () => {
    for (const [subject, extra] of [
      [{ did: as('member').did }, {}],
      [{ $type: 'example.groups.defs#somethingElse', did: as('member').did }, {}],
      [{ $type: 'example.groups.defs#subjectAccount', did: 'nope' }, {}],
      [record('https://example.com/post/1'), {}],
      [{ $type: 'example.groups.defs#subjectRecord' }, {}],
      // Only a record's own address: not a repo, a handle's, a collection or junk.
      [record(`at://${as('outsider').did}`), {}],
      [record('at://outsider.test/app.bsky.feed.post/3kabc'), {}],
      [record(`at://${as('outsider').did}/app.bsky.feed.post`), {}],
      [record(`at://${as('outsider').did}/not a collection/3kabc`), {}],
      [record(`at://${as('outsider').did}/app.bsky.feed.post/3kabc?x=1`), {}],
      [record(`at://${group()}/space/community.lexicon.calendar/self/${as('owner').did}/app.bsky.feed.post`), {}],
      [record(`at://${group()}/spaces/community.lexicon.calendar/self/${as('owner').did}/app.bsky.feed.post/3kabc`), {}],
      [account(as('member').did), { reasonType: '   ' }],
      [account(as('member').did), { reasonType: undefined }],
    ] as const) {
      const res = await report('member', subject, extra)
      expect(res.status, JSON.stringify([subject, extra])).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
    const res = await as('member').call('example.groups.createReport', {
      body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', subject: account(as('outsider').did), reasonType: 'spam' },
    })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })

  it('refuses a report about a record in a space the reporter cannot read, or one the group does not have: Forbidden', async () => {
    const created = await as('owner').call<{ uri: string }>('example.groups.createSpace', {
      body: { group: group(), type: 'example.test.owners', skey: 'self', name: 'Owners', readableBy: ['owner'], credentialScopes: [] },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const hidden = `${created.body.uri}/${group()}/community.lexicon.calendar.event/3kabcdefgh22x`
    const nowhere = `at://${group()}/space/example.test.nowhere/self/${group()}/community.lexicon.calendar.event/3kabcdefgh22x`
    for (const uri of [hidden, nowhere]) {
      expect(await report('member', record(uri)), uri).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
      expect((await queue()).some((s) => (s.subject as { uri?: string }).uri === uri)).toBe(false)
    }
    // The owner reads that space: their report is taken.
    expect((await report('owner', record(hidden))).status).toBe(200)
    expect((await queue()).some((s) => (s.subject as { uri?: string }).uri === hidden)).toBe(true)
  })

  it('keeps an escalated subject escalated when someone reports it again', async () => {
    const subject = account(as('outsider2').did)
    expect((await report('member', subject)).status).toBe(200)
    const escalate = await as('moderator').call('example.groups.emitModerationEvent', { body: { group: group(), subject, event: 'escalate', note: 'For the owners' } })
    expect(escalate.status, JSON.stringify(escalate.body)).toBe(200)
    expect((await report('admin', subject, { reason: 'Again' })).status).toBe(200)
    expect((await queue('escalated')).find((s) => (s.subject as { did?: string }).did === as('outsider2').did)).toMatchObject({ status: 'escalated', reportCount: 2 })
    expect((await queue('open')).some((s) => (s.subject as { did?: string }).did === as('outsider2').did)).toBe(false)
  })
})

/**
 * What one member can make the host keep by reporting (issue 22): every report was a
 * row, a history entry and a change-log entry, however often one person reported one
 * thing, and any number of made-up accounts could be reported.
 */
describe('example.groups.createReport, bounded', () => {
  const approval = () => net.group('approval').did
  const reportIn = (by: Parameters<typeof net.as>[0], subject: unknown) =>
    as(by).call<{ error?: string; message?: string }>('example.groups.createReport', { body: { group: approval(), subject, reasonType: 'spam' } })
  const detail = async (key: string) =>
    (await as('moderator').call<{ reports: unknown[]; history: unknown[] }>('example.groups.getSubject', { params: { group: approval(), subject: key, limit: 100 } })).body

  it('keeps five of one person’s reports about a subject the moderators have not dealt with; more add nothing', async () => {
    const target = as('outsider').did
    for (let i = 0; i < 8; i++) expect((await reportIn('member', account(target))).status).toBe(200)
    expect(await detail(target)).toMatchObject({ reports: Array(5).fill(expect.anything()), history: Array(5).fill(expect.anything()) })
    // Someone else's report is theirs to make.
    expect((await reportIn('admin', account(target))).status).toBe(200)
    expect((await detail(target)).reports).toHaveLength(6)
    // Once the moderators have dealt with it, a fresh report is fresh work.
    expect((await as('moderator').call('example.groups.emitModerationEvent', { body: { group: approval(), subject: account(target), event: 'resolve' } })).status).toBe(200)
    expect((await reportIn('member', account(target))).status).toBe(200)
    expect((await detail(target)).reports).toHaveLength(7)
  })

  it('lets one person have fifty subjects waiting for the moderators; the next is refused (429) until they deal with one', async () => {
    // The subject above is waiting again, reported by the member: one of the fifty.
    const madeUp = (i: number) => `did:plc:${'bounded'.padEnd(20, 'a')}${String(i).padStart(4, 'a').replace(/\d/g, (d) => 'bcdefghijk'[Number(d)]!)}`
    const answers: number[] = []
    for (let i = 0; i < 52; i++) answers.push((await reportIn('member', account(madeUp(i)))).status)
    expect(answers.filter((s) => s === 200)).toHaveLength(49)
    const refused = await reportIn('member', account(madeUp(99)))
    expect(refused).toMatchObject({ status: 429, body: { error: 'RateLimitExceeded', message: expect.stringMatching(/50 reports waiting/) } })
    // It lifts when the moderators act, not at a time: the headers name this limit and no time.
    expect(refused.headers.get('ratelimit-limit')).toBe('50')
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    expect(refused.headers.get('ratelimit-reset')).toBeNull()
    expect(refused.headers.get('retry-after')).toBeNull()
    expect((await as('moderator').call<{ subjects: unknown[] }>('example.groups.listSubjects', { params: { group: approval(), limit: 100 } })).body.subjects).toHaveLength(50)

    expect((await as('moderator').call('example.groups.emitModerationEvent', { body: { group: approval(), subject: account(madeUp(0)), event: 'resolve' } })).status).toBe(200)
    expect((await reportIn('member', account(madeUp(99)))).status).toBe(200)
    // Another member is not held back by them.
    expect((await reportIn('admin', account(madeUp(98)))).status).toBe(200)
  })
})
