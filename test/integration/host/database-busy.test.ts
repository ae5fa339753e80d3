import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { useLocalNetwork, type XrpcResult } from '../../support/local-network.js'
import { createDpopKey, fetchWithDpop } from '../../support/dpop.js'

const net = useLocalNetwork()
const open = () => net.group('open').did

/**
 * Takes the write lock on the running host's database from another connection, as a
 * backup, a second process or an operator's sqlite3 shell can: the host's writes then
 * wait out its busy timeout (5 s) and fail with SQLITE_BUSY.
 */
function holdWriteLock(): () => void {
  const db = new SqliteDatabase(path.join(net.running.dataDir, 'host', 'host.sqlite'), { fileMustExist: true })
  db.exec('BEGIN IMMEDIATE')
  return () => {
    db.exec('ROLLBACK')
    db.close()
  }
}

function expectUnavailable(res: Pick<XrpcResult, 'status' | 'body' | 'headers'>, what: string) {
  expect(res.status, what).toBe(503)
  expect(res.body, what).toMatchObject({ error: 'ServiceUnavailable' })
  expect(Object.keys(res.body).sort(), what).toEqual(['error', 'message'])
  expect(Number(res.headers.get('retry-after')), what).toBeGreaterThan(0)
}

describe('a busy database (decisions 6, item 4)', () => {
  it('answers writes 503 ServiceUnavailable with Retry-After while another connection holds the lock, reads go on, and the same calls succeed once it is released', async () => {
    const release = holdWriteLock()
    try {
      const join = await net.as('outsider').call('example.groups.requestJoin', { body: { group: open() } })
      expectUnavailable(join, 'requestJoin')
      expect(join.body.message).toMatch(/busy/)

      // getGroupAuth writes the proof's jti before anything else: its auth meets the lock.
      const token = await net.as('owner').serviceAuth('example.groups.getGroupAuth')
      const grant = await fetchWithDpop(await createDpopKey(), `${net.stack.host.url}/xrpc/example.groups.getGroupAuth`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ group: open(), space: `at://${open()}/space/members/self` }),
      })
      expectUnavailable({ status: grant.status, body: (await grant.json()) as Record<string, unknown>, headers: grant.headers }, 'getGroupAuth')

      // WAL: readers are not blocked by the writer.
      const read = await net.as('member').call('example.groups.getGroup', { params: { group: open() } })
      expect(read.status).toBe(200)
    } finally {
      release()
    }
    // Nothing was half done: the refused join is made now, once.
    const join = await net.as('outsider').call('example.groups.requestJoin', { body: { group: open() } })
    expect(join).toMatchObject({ status: 200, body: { status: 'admitted' } })
    const members = await net.as('owner').call<{ members: { did: string }[] }>('example.groups.listMembers', { params: { group: open(), q: net.as('outsider').did } })
    expect(members.body.members.map((m) => m.did)).toEqual([net.as('outsider').did])
  })
})
