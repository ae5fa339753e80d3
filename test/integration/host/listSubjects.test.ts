import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('approval').did
const account = (did: string) => ({ $type: 'example.groups.defs#subjectAccount', did })
const record = (n: number) => ({ $type: 'example.groups.defs#subjectRecord', uri: `at://${as('outsider').did}/app.bsky.feed.post/post${n}` })
type Page = { subjects: { subject: { did?: string; uri?: string }; status: string; reportCount: number }[]; cursor?: string; error?: string }
const list = (by: Parameters<typeof net.as>[0], params: Record<string, string | number | undefined> = {}) =>
  as(by).call<Page>('example.groups.listSubjects', { params: { group: group(), ...params } })
const keyOf = (s: Page['subjects'][number]) => s.subject.did ?? s.subject.uri

describe('example.groups.listSubjects', () => {
  it('is empty before anything is reported', async () => {
    expect(await list('moderator')).toMatchObject({ status: 200, body: { subjects: [] } })
  })

  it('lists reported subjects oldest first, and narrows by status', async () => {
    const subjects = [account(as('outsider').did), record(1), record(2), account(as('outsider2').did)]
    for (const subject of subjects) {
      expect((await as('member').call('example.groups.createReport', { body: { group: group(), subject, reasonType: 'spam' } })).status).toBe(200)
    }
    const all = await list('moderator')
    expect(all.body.subjects.map(keyOf)).toEqual(subjects.map((s) => ('did' in s ? s.did : s.uri)))
    expect(all.body.subjects.every((s) => s.status === 'open' && s.reportCount === 1)).toBe(true)

    const resolve = { group: group(), subject: record(1), status: 'resolved' }
    expect((await as('moderator').call('example.groups.updateSubject', { body: resolve })).status).toBe(200)
    expect((await list('moderator', { status: 'open' })).body.subjects.map(keyOf)).toEqual([as('outsider').did, record(2).uri, as('outsider2').did])
    expect((await list('moderator', { status: 'resolved' })).body.subjects.map(keyOf)).toEqual([record(1).uri])
    expect((await list('moderator', { status: 'escalated' })).body.subjects).toEqual([])
  })

  it('pages with an opaque cursor', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    for (let i = 0; i < 10; i++) {
      const res = await list('admin', { limit: 1, cursor })
      expect(res.status).toBe(200)
      expect(res.body.subjects.length).toBeLessThanOrEqual(1)
      seen.push(...res.body.subjects.map((s) => keyOf(s)!))
      cursor = res.body.cursor
      if (!cursor) break
    }
    expect(seen).toEqual([as('outsider').did, record(1).uri, record(2).uri, as('outsider2').did])
    const open = await list('admin', { status: 'open', limit: 2 })
    expect(open.body.subjects.map(keyOf)).toEqual([as('outsider').did, record(2).uri])
    const rest = await list('admin', { status: 'open', limit: 2, cursor: open.body.cursor })
    expect(rest.body).toEqual({ subjects: [expect.objectContaining({ subject: account(as('outsider2').did) })] })
  })

  it('refuses callers without mod.read: Forbidden', async () => {
    for (const name of ['member', 'outsider'] as const) {
      expect(await list(name), name).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    }
  })

  it('answers InvalidRequest for an unknown status, a malformed cursor and an unknown group', async () => {
    expect(await list('moderator', { status: 'closed' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    for (const cursor of ['%%%', Buffer.from('not json').toString('base64url'), Buffer.from('[1,2]').toString('base64url')]) {
      expect((await list('moderator', { cursor })).body.error, cursor).toBe('InvalidRequest')
    }
    const res = await as('moderator').call('example.groups.listSubjects', { params: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })

  it('narrows by reason type and by kind, and orders by most reports or newest report', async () => {
    const SPAM = 'com.atproto.moderation.defs#reasonSpam'
    const RUDE = 'com.atproto.moderation.defs#reasonRude'
    const file = (by: Parameters<typeof net.as>[0], subject: unknown, reasonType: string, reason: string) =>
      as(by).call('example.groups.createReport', { body: { group: group(), subject, reasonType, reason } })
    // record(2) now has three people's reports, outsider2 two, record(1) one more (and the newest).
    expect((await file('admin', record(2), SPAM, 'Ad for a shop')).status).toBe(200)
    expect((await file('moderator', record(2), RUDE, 'Rude to the host')).status).toBe(200)
    expect((await file('admin', account(as('outsider2').did), RUDE, 'Shouted at people')).status).toBe(200)
    expect((await file('moderator', record(1), SPAM, 'Same ad again')).status).toBe(200)

    const keys = async (params: Record<string, string | number | undefined>) => {
      const res = await list('moderator', params)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return res.body.subjects.map(keyOf)
    }
    expect(await keys({ reasonType: RUDE })).toEqual([record(2).uri, as('outsider2').did])
    expect(await keys({ kind: 'account' })).toEqual([as('outsider').did, as('outsider2').did])
    expect(await keys({ kind: 'record', reasonType: SPAM })).toEqual([record(1).uri, record(2).uri])
    // Ties (two reporters each) go by key: a record's at:// address before a DID.
    expect(await keys({ sort: 'mostReports' })).toEqual([record(2).uri, record(1).uri, as('outsider2').did, as('outsider').did])
    const most = (await list('moderator', { sort: 'mostReports' })).body.subjects
    expect(most.map((s) => s.reportCount)).toEqual([3, 2, 2, 1])
    expect(await keys({ sort: 'newestReport' })).toEqual([record(1).uri, as('outsider2').did, record(2).uri, as('outsider').did])

    // Each row carries the newest report's words and the reason types seen.
    const row = (await list('moderator', { sort: 'newestReport', limit: 1 })).body.subjects[0] as unknown as Record<string, unknown>
    expect(row).toMatchObject({ lastReport: { reasonType: SPAM, reason: 'Same ad again', reportedBy: as('moderator').did }, reasonTypes: ['spam', SPAM].sort() })

    // Cursors page every ordering.
    for (const sort of ['mostReports', 'newestReport'] as const) {
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const res = await list('moderator', { sort, limit: 1, cursor })
        seen.push(...res.body.subjects.map((s) => keyOf(s)!))
        cursor = res.body.cursor
      } while (cursor)
      expect(seen, sort).toEqual(await keys({ sort }))
    }
    expect(await list('moderator', { sort: 'loudest' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await list('moderator', { kind: 'post' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })
})
