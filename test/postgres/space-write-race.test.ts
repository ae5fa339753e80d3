import { beforeAll, describe, expect, it } from 'vitest'
import type { HostDb } from '../../src/host/db/index.js'
import { groupTransaction } from '../../src/host/db/group-lock.js'
import { writeAsGroup, type WriteGrant } from '../../src/host/spaces/group-writes.js'
import { useOwnHostDb } from '../support/own-host-db.js'

/**
 * A space write as the group racing a role taken away (issue 37 point 6), on PostgreSQL,
 * where the two transactions run side by side: the write takes the group's lock before it
 * reads the roles, so it waits for the revocation to commit and is refused, rather than
 * reading the role as still held and writing after it was taken away.
 */
let db: HostDb
useOwnHostDb({}, (d) => (db = d))

const GROUP = 'did:plc:spacewriteracegroup'
const ADMIN = 'did:plc:spacewriteraceadmin'
const SPACE = `at://${GROUP}/space/community.lexicon.calendar/self`
const EVENT = 'community.lexicon.calendar.event'
const grant: WriteGrant = { group: GROUP, actor: ADMIN, jkt: 'jkt', spaces: [{ space: SPACE, collections: [EVENT], actions: ['create', 'update', 'delete'] }] }
const write = () => writeAsGroup(db, grant, { space: SPACE, repo: GROUP, collection: EVENT, actions: ['create'] }, async () => 'written')

beforeAll(async () => {
  const now = new Date().toISOString()
  await db.insertInto('group').values({ did: GROUP, handle: 'race.groups.test', displayName: null, description: null, joinPolicy: 'open', rotationKeySealed: 'x', createdAt: now, createdBy: null }).execute()
  await db.insertInto('role').values({ groupDid: GROUP, name: 'admin', actions: '[]', assignable: '[]' }).execute()
  await db.insertInto('member').values({ groupDid: GROUP, did: ADMIN, joinedAt: now, acceptedAt: null }).execute()
  await db.insertInto('member_role').values({ groupDid: GROUP, did: ADMIN, role: 'admin' }).execute()
  await db
    .insertInto('space')
    .values({ uri: SPACE, groupDid: GROUP, type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar', readableBy: '["admin"]', credentialScopes: JSON.stringify([{ role: 'admin', scopes: [EVENT] }]), createdAt: now, updatedAt: now })
    .execute()
})

describe('a space write and a role taken away at the same time', () => {
  it('is written while the role stands, and refused once the revocation it waited for has committed', async () => {
    await expect(write()).resolves.toBe('written')
    let revokedAt = 0
    const revocation = groupTransaction(db, GROUP, async (tx) => {
      await tx.deleteFrom('member_role').where('groupDid', '=', GROUP).where('did', '=', ADMIN).execute()
      // Still open a moment: the write below starts meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 300))
      revokedAt = Date.now()
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const raced = write().then(
      (r) => ({ r, at: Date.now() }),
      (err: unknown) => ({ err, at: Date.now() }),
    )
    await revocation
    const outcome = await raced
    expect(outcome).toMatchObject({ err: { customErrorName: 'Forbidden' } })
    expect(outcome.at).toBeGreaterThanOrEqual(revokedAt)
  })
})
