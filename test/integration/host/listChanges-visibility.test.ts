import { beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { writeGroupEvent } from '../../support/group-records.js'

const net = useLocalNetwork()
const as = net.caller

interface Change {
  seq: number
  kind: string
  subject?: string
}
const group = () => net.group('approval').did
const log = (by: Parameters<typeof net.as>[0], params: Record<string, string | number | undefined> = {}) =>
  as(by).call<{ changes: Change[]; cursor: string }>('example.groups.listChanges', { params: { group: group(), limit: 100, ...params } })
const shown = (changes: Change[]) => changes.map((c) => [c.kind, c.subject])

async function createSpace(type: string, readableBy: string[]): Promise<string> {
  const res = await as('owner').call<{ uri: string }>('example.groups.createSpace', {
    body: { group: group(), type, skey: 'self', name: type, readableBy, credentialScopes: [{ role: 'owner', scopes: ['*'] }] },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.uri
}

/** A record the group writes into `space`, with a group credential (getGroupAuth + DPoP). */
const writeEvent = (space: string, name: string) => writeGroupEvent(net.stack.host.url, as('owner'), group(), space, name)

let start: string
let secret: string, board: string, secretRecord: string, boardRecord: string, requestId: string, inviteUri: string

describe('example.groups.listChanges shows only what the caller’s roles reach', () => {
  beforeAll(async () => {
    start = (await log('member')).body.cursor
    // An organizers-only space and an everyone space, a record in each.
    secret = await createSpace('example.test.organizers', ['owner', 'admin'])
    board = await createSpace('example.test.board', ['owner', 'admin', 'moderator', 'member'])
    secretRecord = await writeEvent(secret, 'Planning meeting')
    boardRecord = await writeEvent(board, 'Picnic')
    // A join request, an invite and a report.
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: group(), message: 'hello' } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    requestId = ((await as('admin').call<{ requests: { id: string }[] }>('example.groups.listJoinRequests', { params: { group: group() } })).body.requests[0]!).id
    inviteUri = (await as('admin').call<{ uri: string }>('example.groups.createInvite', { body: { group: group(), invitee: as('outsider2').did } })).body.uri
    const report = { group: group(), subject: { $type: 'example.groups.defs#subjectAccount', did: as('outsider').did }, reasonType: 'spam' }
    expect((await as('member').call('example.groups.createReport', { body: report })).status).toBe(200)
  })

  it('an admin sees all of it', async () => {
    const res = await log('admin', { cursor: start })
    expect(shown(res.body.changes)).toEqual([
      ['space.created', secret],
      ['space.created', board],
      ['record.created', secretRecord],
      ['record.created', boardRecord],
      ['joinRequest.created', requestId],
      ['invite.created', inviteUri],
      ['subject.reported', as('outsider').did],
    ])
  })

  it('a plain member sees no record address in a space they cannot read, no request, invite or report', async () => {
    const res = await log('member', { cursor: start })
    expect(shown(res.body.changes)).toEqual([
      ['space.created', secret],
      ['space.created', board],
      ['record.created', boardRecord],
    ])
    expect(JSON.stringify(res.body)).not.toContain(as('outsider2').did)
    expect(JSON.stringify(res.body)).not.toContain(requestId)
    // Its cursor is the end of the log, as the admin's is: the hidden entries are behind it.
    expect(res.body.cursor).toBe((await log('admin', { cursor: start })).body.cursor)
    expect((await log('member', { cursor: res.body.cursor })).body.changes).toEqual([])
  })

  it('a moderator sees reports but not requests or invites', async () => {
    const kinds = (await log('moderator', { cursor: start })).body.changes.map((c) => c.kind)
    expect(kinds).toContain('subject.reported')
    expect(kinds.some((k) => k.startsWith('joinRequest.') || k.startsWith('invite.'))).toBe(false)
    expect(kinds.filter((k) => k === 'record.created')).toHaveLength(1)
  })

  it('pages count only visible entries, and paging one at a time walks exactly them', async () => {
    const all = (await log('member', { cursor: start })).body.changes
    const seen: Change[] = []
    let cursor = start
    for (let i = 0; i < 20; i++) {
      const res = await log('member', { cursor, limit: 1 })
      cursor = res.body.cursor
      if (res.body.changes.length === 0) break
      seen.push(...res.body.changes)
    }
    expect(seen).toEqual(all)
  })

  it('a page of hidden entries only still moves the cursor on, and the next visible one is found with limit 1', async () => {
    const before = (await log('member')).body.cursor
    expect((await as('admin').call('example.groups.revokeInvite', { body: { group: group(), invitee: as('outsider2').did } })).status).toBe(200)
    const quiet = await log('member', { cursor: before })
    expect(quiet.body.changes).toEqual([])
    expect(quiet.body.cursor).not.toBe(before)

    // The app's "anything new?" poll (limit 1) from the old cursor is not stuck behind them.
    expect((await as('owner').call('example.groups.configureGroup', { body: { group: group(), description: 'Changed' } })).status).toBe(200)
    const next = await log('member', { cursor: before, limit: 1 })
    expect(next.body.changes.map((c) => c.kind)).toEqual(['group.configured'])
  })
})
