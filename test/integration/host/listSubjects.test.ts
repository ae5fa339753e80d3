import { describe, expect, it } from 'vitest'
import { useLocalNetwork, type Caller } from '../../support/local-network.js'

const net = useLocalNetwork()
const callers = new Map<string, Caller>()
const as = (name: Parameters<typeof net.as>[0]) => callers.get(name) ?? callers.set(name, net.as(name)).get(name)!

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
})
