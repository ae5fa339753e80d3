import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { moderationEvents } from '../../support/host-db.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('invite').did
const account = (did: string) => ({ $type: 'example.groups.defs#subjectAccount', did })
const post = () => `at://${as('outsider').did}/app.bsky.feed.post/3kxyz`
const CID = 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm'

const update = (by: Parameters<typeof net.as>[0], subject: unknown, status: string, note?: string) =>
  as(by).call('example.groups.updateSubject', { body: { group: group(), subject, status, ...(note ? { note } : {}) } })
const statusOf = async (key: string) => {
  const res = await as('moderator').call<{ subjects: { subject: { did?: string; uri?: string }; status: string; reportCount: number }[] }>(
    'example.groups.listSubjects',
    { params: { group: group() } },
  )
  return res.body.subjects.find((s) => (s.subject.did ?? s.subject.uri) === key)
}

describe('example.groups.updateSubject', () => {
  it('answers SubjectNotFound for something nobody reported', async () => {
    expect(await update('moderator', account(as('outsider').did), 'resolved')).toMatchObject({ status: 400, body: { error: 'SubjectNotFound' } })
  })

  it('lets a moderator escalate and then resolve a reported account', async () => {
    const subject = account(as('outsider').did)
    expect((await as('member').call('example.groups.createReport', { body: { group: group(), subject, reasonType: 'harassment' } })).status).toBe(200)
    expect(await update('moderator', subject, 'escalated', 'Needs an admin')).toMatchObject({ status: 200, body: {} })
    expect(await statusOf(as('outsider').did)).toMatchObject({ status: 'escalated', reportCount: 1 })
    expect((await update('admin', subject, 'resolved')).status).toBe(200)
    expect(await statusOf(as('outsider').did)).toMatchObject({ status: 'resolved', reportCount: 1 })
    expect(moderationEvents(net.running, group()).filter((e) => e.kind === 'status')).toEqual([
      { subjectKey: as('outsider').did, kind: 'status', data: { status: 'escalated', note: 'Needs an admin' }, createdBy: as('moderator').did },
      { subjectKey: as('outsider').did, kind: 'status', data: { status: 'resolved' }, createdBy: as('admin').did },
    ])
    const log = await as('moderator').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })
    expect(log.body.changes.filter((c) => c.kind === 'subject.updated')).toHaveLength(2)
  })

  it('finds a reported record by its address, whichever version is named', async () => {
    const reported = { $type: 'example.groups.defs#subjectRecord', uri: post(), cid: CID }
    expect((await as('member').call('example.groups.createReport', { body: { group: group(), subject: reported, reasonType: 'spam' } })).status).toBe(200)
    expect((await update('moderator', { $type: 'example.groups.defs#subjectRecord', uri: post() }, 'resolved')).status).toBe(200)
    expect(await statusOf(post())).toMatchObject({ status: 'resolved', subject: { uri: post(), cid: CID } })
  })

  it('refuses callers without mod.resolve: Forbidden', async () => {
    for (const name of ['member', 'outsider'] as const) {
      expect(await update(name, account(as('outsider').did), 'open'), name).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    }
    expect((await statusOf(as('outsider').did))?.status).toBe('resolved')
  })

  it('answers InvalidRequest for an unknown status, a malformed subject and an unknown group', async () => {
    expect(await update('moderator', account(as('outsider').did), 'deleted')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect((await update('moderator', { did: as('outsider').did }, 'open')).body.error).toBe('InvalidRequest')
    expect((await update('moderator', account(as('outsider').did), 'open', 'x'.repeat(3001))).body.error).toBe('InvalidRequest')
    const res = await as('moderator').call('example.groups.updateSubject', {
      body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', subject: account(as('outsider').did), status: 'open' },
    })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
