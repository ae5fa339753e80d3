import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { createOpenSpace, writeGroupEvent } from '../../support/group-records.js'

const net = useLocalNetwork()
const as = net.caller
const group = () => net.group('open').did

interface Entry {
  seq: number
  kind: string
  subject?: string
  createdAt: string
  actor?: string
  asGroup?: boolean
}
const audit = (by: Parameters<typeof net.as>[0], params: Record<string, string | number> = {}) =>
  as(by).call<{ entries: Entry[]; cursor?: string; error?: string; message?: string }>('example.groups.listAuditLog', { params: { group: group(), ...params } })

describe('listAuditLog: who made each change', () => {
  it('names the person whose call made each change, newest first', async () => {
    const member = as('member').did
    expect((await as('admin').call('example.groups.grantRole', { body: { group: group(), did: member, role: 'moderator' } })).status).toBe(200)
    expect((await as('owner').call('example.groups.revokeRole', { body: { group: group(), did: member, role: 'moderator' } })).status).toBe(200)
    const { status, body } = await audit('owner', { limit: 2 })
    expect(status).toBe(200)
    expect(body.entries).toEqual([
      { seq: expect.any(Number), kind: 'member.roleRevoked', subject: member, createdAt: expect.any(String), actor: as('owner').did },
      { seq: expect.any(Number), kind: 'member.roleGranted', subject: member, createdAt: expect.any(String), actor: as('admin').did },
    ])
    expect(body.entries[0]!.seq).toBeGreaterThan(body.entries[1]!.seq)
  })

  it('names the member behind a write made for the group with a group credential', async () => {
    const space = await createOpenSpace(as('owner'), group(), 'community.lexicon.calendar')
    const uri = await writeGroupEvent(net.stack.host.url, as('owner'), group(), space, 'Audit picnic')
    const { body } = await audit('owner', { kind: 'record.created', limit: 1 })
    expect(body.entries).toEqual([{ seq: expect.any(Number), kind: 'record.created', subject: uri, createdAt: expect.any(String), actor: as('owner').did, asGroup: true }])
  })

  it('filters by person and time, and pages with a cursor without repeating or skipping an entry', async () => {
    const byAdmin = await audit('owner', { actor: as('admin').did })
    expect(byAdmin.body.entries.length).toBeGreaterThan(0)
    expect(byAdmin.body.entries.every((e) => e.actor === as('admin').did)).toBe(true)

    const all: Entry[] = []
    let cursor: string | undefined
    do {
      const res = await audit('owner', { limit: 2, ...(cursor ? { cursor } : {}) })
      all.push(...res.body.entries)
      cursor = res.body.cursor
    } while (cursor)
    const seqs = all.map((e) => e.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a))
    expect(new Set(seqs).size).toBe(seqs.length)
    expect(all.length).toBe((await audit('owner', { limit: 100 })).body.entries.length)

    expect((await audit('owner', { since: '2999-01-01T00:00:00Z' })).body.entries).toEqual([])
    expect((await audit('owner', { until: '2000-01-01T00:00:00Z' })).body.entries).toEqual([])
  })

  it('is for those who may configure the group only, and refuses a malformed cursor in plain words', async () => {
    expect(await audit('admin')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await audit('moderator')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await audit('outsider')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await audit('owner', { cursor: 'not-a-cursor' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })
})
