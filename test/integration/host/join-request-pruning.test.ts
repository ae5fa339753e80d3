import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { HostDb } from '../../../src/host/db/index.js'
import { useOwnHostDb } from '../../support/own-host-db.js'
import { groupTransaction } from '../../../src/host/db/group-lock.js'
import { openJoinRequest, REQUESTS_PER_DAY } from '../../../src/host/membership/new-join-request.js'

/**
 * Join requests do not pile up (issue 22): one that was decided or withdrawn is deleted
 * a day after, when the group's next request is made, and one person may make only so
 * many requests to a group in a day. (requestJoin.test.ts shows the cap over HTTP; this
 * moves the clock.) Runs on SQLite, and on PostgreSQL in the PostgreSQL run.
 */
const DAY_S = 24 * 3600
const GROUP = 'did:plc:prunegroup'
const OTHER_GROUP = 'did:plc:othergroup'
let db: HostDb
useOwnHostDb({ groupCommit: false }, (opened) => (db = opened))

beforeAll(async () => {
  for (const did of [GROUP, OTHER_GROUP]) {
    await db
      .insertInto('group')
      .values({ did, handle: `${did.slice(8)}.test`, displayName: null, description: null, joinPolicy: 'approval', rotationKeySealed: 'unused', createdAt: new Date().toISOString() })
      .execute()
  }
})

const at = (s: number) => vi.setSystemTime(s * 1000)
const ask = (person: string, group = GROUP) =>
  groupTransaction(db, group, (tx) => openJoinRequest(tx, group, person, null, new Date().toISOString()))
/** What cancelJoinRequest does to the row. */
const withdraw = (person: string, group = GROUP) =>
  db.updateTable('join_request').set({ status: 'cancelled', decidedAt: new Date().toISOString(), decidedBy: person }).where('groupDid', '=', group).where('did', '=', person).where('status', '=', 'pending').execute()
const rows = async (group = GROUP) => (await db.selectFrom('join_request').select(['did', 'status']).where('groupDid', '=', group).execute()).map((r) => `${r.did} ${r.status}`).sort()

describe('join requests kept', () => {
  it('deletes decided and withdrawn requests a day after, when the group’s next request is made; pending ones stay', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const start = 2_000_000_000
      at(start)
      for (let i = 0; i < 3; i++) {
        await ask('did:plc:cycler')
        await withdraw('did:plc:cycler')
      }
      await ask('did:plc:waiting')
      await ask('did:plc:cycler', OTHER_GROUP)
      await withdraw('did:plc:cycler', OTHER_GROUP)

      // Within the day: nothing goes.
      at(start + DAY_S - 60)
      await ask('did:plc:late')
      expect(await rows()).toEqual([...Array(3).fill('did:plc:cycler cancelled'), 'did:plc:late pending', 'did:plc:waiting pending'])

      // Past it: the withdrawn ones go; the pending ones, however old, stay; so do other groups' rows until their next request.
      at(start + DAY_S + 60)
      await withdraw('did:plc:late')
      await ask('did:plc:late')
      expect(await rows()).toEqual(['did:plc:late cancelled', 'did:plc:late pending', 'did:plc:waiting pending'])
      expect(await rows(OTHER_GROUP)).toEqual(['did:plc:cycler cancelled'])
    } finally {
      vi.useRealTimers()
    }
  })

  it(`lets one person make ${REQUESTS_PER_DAY} requests to a group a day, then refuses until the oldest is a day old`, async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const start = 2_100_000_000
      for (let i = 0; i < REQUESTS_PER_DAY; i++) {
        at(start + i * 60)
        await ask('did:plc:eager')
        await withdraw('did:plc:eager')
      }
      at(start + 3600)
      await expect(ask('did:plc:eager')).rejects.toMatchObject({ type: 429, message: expect.stringMatching(/ask again in 23 hours/) })
      // Only that person, in that group.
      await expect(ask('did:plc:eager', OTHER_GROUP)).resolves.toEqual(expect.any(String))
      await expect(ask('did:plc:someone')).resolves.toEqual(expect.any(String))

      at(start + DAY_S + 1)
      await expect(ask('did:plc:eager')).resolves.toEqual(expect.any(String))
      // However long it goes on, the person keeps a day's worth of rows, and the one that was pending a day before.
      for (let day = 2; day < 5; day++) {
        for (let i = 0; i < REQUESTS_PER_DAY + 3; i++) {
          at(start + day * DAY_S + i * 60)
          await withdraw('did:plc:eager')
          await ask('did:plc:eager').catch(() => {})
        }
      }
      expect((await rows()).filter((r) => r.startsWith('did:plc:eager '))).toHaveLength(REQUESTS_PER_DAY + 1)
    } finally {
      vi.useRealTimers()
    }
  })
})
