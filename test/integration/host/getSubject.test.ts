import { beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { createOpenSpace, writeGroupEvent } from '../../support/group-records.js'

const net = useLocalNetwork()
const as = net.caller

const SPAM = 'com.atproto.moderation.defs#reasonSpam'
const RUDE = 'com.atproto.moderation.defs#reasonRude'
const group = () => net.group('open').did
const account = (did: string) => ({ $type: 'example.groups.defs#subjectAccount', did })
const report = (by: Parameters<typeof net.as>[0], subject: unknown, reasonType: string, reason?: string) =>
  as(by).call('example.groups.createReport', { body: { group: group(), subject, reasonType, ...(reason ? { reason } : {}) } })

interface Report {
  reasonType: string
  reason?: string
  reportedBy?: string
  createdAt: string
}
interface History {
  event: string
  note?: string
  reasonType?: string
  createdBy?: string
  createdAt: string
}
interface SubjectPage {
  subject: { subject: unknown; status: string; reportCount: number; takenDown?: boolean; lastReport?: Report }
  record?: Record<string, unknown>
  recordWithheld?: boolean
  reports: Report[]
  history: History[]
  cursor?: string
}
const get = (by: Parameters<typeof net.as>[0], subject: string, params: Record<string, string | number | undefined> = {}) =>
  as(by).call<SubjectPage>('example.groups.getSubject', { params: { group: group(), subject, ...params } })

let eventUri: string

describe('example.groups.getSubject', () => {
  beforeAll(async () => {
    const space = await createOpenSpace(as('owner'), group(), 'example.test.calendar')
    eventUri = await writeGroupEvent(net.stack.host.url, as('owner'), group(), space, 'Free crypto meetup')
  })

  it('shows a moderator every report, with reason, words, reporter and time, newest first', async () => {
    const subject = account(as('outsider').did)
    expect((await report('member', subject, SPAM, 'Sends everyone ads')).status).toBe(200)
    expect((await report('admin', subject, RUDE, 'Insulted a newcomer')).status).toBe(200)
    const res = await get('moderator', as('outsider').did)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.subject).toMatchObject({ subject, status: 'open', reportCount: 2, takenDown: false })
    expect(res.body.subject.lastReport).toMatchObject({ reasonType: RUDE, reason: 'Insulted a newcomer', reportedBy: as('admin').did })
    expect(res.body.reports).toEqual([
      { id: expect.any(Number), reasonType: RUDE, reason: 'Insulted a newcomer', reportedBy: as('admin').did, createdAt: expect.any(String) },
      { id: expect.any(Number), reasonType: SPAM, reason: 'Sends everyone ads', reportedBy: as('member').did, createdAt: expect.any(String) },
    ])
    expect(res.body.history.map((h) => [h.event, h.reasonType, h.createdBy])).toEqual([
      ['report', RUDE, as('admin').did],
      ['report', SPAM, as('member').did],
    ])
  })

  it('keeps moderators’ acts in the history with who and when', async () => {
    const subject = account(as('outsider').did)
    const ack = await as('moderator').call('example.groups.emitModerationEvent', { body: { group: group(), subject, event: 'comment', note: 'Checking their posts' } })
    expect(ack.status, JSON.stringify(ack.body)).toBe(200)
    const { history } = (await get('admin', as('outsider').did)).body
    expect(history[0]).toMatchObject({ event: 'comment', note: 'Checking their posts', createdBy: as('moderator').did, createdAt: expect.any(String) })
  })

  it('shows a reported record as members were served it', async () => {
    expect((await report('member', { $type: 'example.groups.defs#subjectRecord', uri: eventUri }, SPAM, 'An ad, not a meetup')).status).toBe(200)
    const res = await get('moderator', eventUri)
    expect(res.status).toBe(200)
    expect(res.body.record).toMatchObject({ name: 'Free crypto meetup', startsAt: '2030-05-01T18:00:00.000Z' })
    expect(res.body.reports).toEqual([expect.objectContaining({ reasonType: SPAM, reason: 'An ad, not a meetup' })])
  })

  it('withholds from a moderator the content of a reported record in a space their roles may not read', async () => {
    const created = await as('owner').call<{ uri: string }>('example.groups.createSpace', {
      body: { group: group(), type: 'example.test.owners', skey: 'self', name: 'Owners', readableBy: ['owner'], credentialScopes: [{ role: 'owner', scopes: ['*'] }] },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const secret = await writeGroupEvent(net.stack.host.url, as('owner'), group(), created.body.uri, 'Surprise party for the admin')
    expect((await report('owner', { $type: 'example.groups.defs#subjectRecord', uri: secret }, SPAM, 'Posted in the wrong space')).status).toBe(200)
    // The moderator may not read the space (listRecords refuses them), so getSubject shows
    // the reports and history but not the record.
    expect(await as('moderator').call('com.atproto.space.listRecords', { params: { space: created.body.uri, repo: group(), collection: 'community.lexicon.calendar.event' } })).toMatchObject({
      status: 400,
      body: { error: 'Forbidden' },
    })
    const res = await get('moderator', secret)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.record).toBeUndefined()
    expect(res.body).toMatchObject({ recordWithheld: true, reports: [expect.objectContaining({ reasonType: SPAM, reason: 'Posted in the wrong space' })] })
    expect(JSON.stringify(res.body)).not.toContain('Surprise party')
    // The owner reads the space: they get the record.
    const own = await get('owner', secret)
    expect(own.body.record).toMatchObject({ name: 'Surprise party for the admin' })
    expect(own.body).not.toHaveProperty('recordWithheld')
  })

  it('never shows the reported person who reported them, even when they moderate', async () => {
    expect((await report('member', account(as('moderator').did), RUDE, 'Was curt with me')).status).toBe(200)
    const own = await get('moderator', as('moderator').did)
    expect(own.status).toBe(200)
    expect(own.body.reports).toEqual([expect.objectContaining({ reasonType: RUDE, reason: 'Was curt with me' })])
    expect(own.body.reports[0]).not.toHaveProperty('reportedBy')
    expect(own.body.subject.lastReport).not.toHaveProperty('reportedBy')
    expect(own.body.history[0]).not.toHaveProperty('createdBy')
    expect(JSON.stringify(own.body)).not.toContain(as('member').did)
    const listed = await as('moderator').call<{ subjects: SubjectPage['subject'][] }>('example.groups.listSubjects', { params: { group: group() } })
    expect(JSON.stringify(listed.body.subjects.find((s) => (s.subject as { did?: string }).did === as('moderator').did))).not.toContain(as('member').did)
    // Another moderator sees who it was.
    expect((await get('admin', as('moderator').did)).body.reports[0]).toMatchObject({ reportedBy: as('member').did })
  })

  it('pages reports and history together with one cursor', async () => {
    const did = as('outsider').did
    const first = await get('moderator', did, { limit: 1 })
    expect(first.body.reports).toHaveLength(1)
    expect(first.body.history).toHaveLength(1)
    expect(first.body.cursor).toBeTruthy()
    const reports: string[] = [...first.body.reports.map((r) => r.reasonType)]
    const events: string[] = [...first.body.history.map((h) => h.event)]
    let cursor = first.body.cursor
    while (cursor) {
      const next = await get('moderator', did, { limit: 1, cursor })
      expect(next.status).toBe(200)
      expect(next.body.record).toBeUndefined()
      reports.push(...next.body.reports.map((r) => r.reasonType))
      events.push(...next.body.history.map((h) => h.event))
      cursor = next.body.cursor
    }
    expect(reports).toEqual([RUDE, SPAM])
    expect(events).toEqual(['comment', 'report', 'report'])
  })

  it('refuses callers without mod.read (Forbidden), unknown subjects (SubjectNotFound), bad cursors (InvalidRequest)', async () => {
    for (const name of ['member', 'outsider'] as const) {
      expect(await get(name, as('outsider').did), name).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    }
    expect(await get('moderator', as('owner').did)).toMatchObject({ status: 400, body: { error: 'SubjectNotFound' } })
    expect(await get('moderator', as('outsider').did, { cursor: 'nope' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })
})
