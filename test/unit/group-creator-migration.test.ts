import { describe, expect, it } from 'vitest'
import { hostDbBefore } from '../support/host-migrations.js'

describe('migration 018: who created each group', () => {
  it('credits an existing group to the member who joined as it was created, or to nobody once they have left', async () => {
    const { db, migrate } = await hostDbBefore('018-group-creator')
    const created = '2026-01-01T00:00:00.000Z'
    const later = '2026-01-02T00:00:00.000Z'
    for (const did of ['did:plc:kept', 'did:plc:left']) {
      await db.insertInto('group').values({ did, handle: `${did.slice(8)}.test`, displayName: null, description: null, joinPolicy: 'open', rotationKeySealed: 'x', createdAt: created }).execute()
    }
    await db
      .insertInto('member')
      .values([
        { groupDid: 'did:plc:kept', did: 'did:plc:joinedlater', joinedAt: later, acceptedAt: null },
        { groupDid: 'did:plc:kept', did: 'did:plc:creator', joinedAt: created, acceptedAt: null },
        { groupDid: 'did:plc:left', did: 'did:plc:joinedlater', joinedAt: later, acceptedAt: null },
      ])
      .execute()

    await migrate()
    const rows = await db.selectFrom('group').select(['did', 'createdBy']).orderBy('did').execute()
    expect(rows).toEqual([
      { did: 'did:plc:kept', createdBy: 'did:plc:creator' },
      { did: 'did:plc:left', createdBy: null },
    ])
    await db.destroy()
  })
})
