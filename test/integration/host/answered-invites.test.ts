import { beforeAll, describe, expect, it } from 'vitest'
import type { HostDb } from '../../../src/host/db/index.js'
import { useOwnHostDb } from '../../support/own-host-db.js'
import { groupTransaction } from '../../../src/host/db/group-lock.js'
import { declineInvite, invite, OUTSTANDING_INVITES_PER_INVITER, redeemOutstanding, revokeInvite } from '../../../src/host/membership/invites.js'

/**
 * Answered invites are not kept (issue 35 point 3): anyone who makes a group can invite,
 * so an invite leaves storage once redeemed, revoked or declined, and the change log alone
 * says which. Runs on SQLite, and on PostgreSQL in the PostgreSQL run.
 */
const GROUP = 'did:plc:invitegroup'
const OWNER = 'did:plc:inviteowner'
let db: HostDb
useOwnHostDb({ groupCommit: false }, (opened) => (db = opened))

const OTHER = 'did:plc:invitegroup2'
beforeAll(async () => {
  for (const did of [GROUP, OTHER]) {
    await db
      .insertInto('group')
      .values({ did, handle: `${did.slice(8)}.test`, displayName: null, description: null, joinPolicy: 'invite', rotationKeySealed: 'unused', createdAt: new Date().toISOString() })
      .execute()
  }
})

const inTx = <T,>(fn: Parameters<typeof groupTransaction<T>>[2]) => groupTransaction(db, GROUP, fn)
const rows = async () => (await db.selectFrom('invite').select(['invitee', 'status']).where('groupDid', '=', GROUP).execute()).map((r) => `${r.invitee} ${r.status}`).sort()
const changes = async () => (await db.selectFrom('change').select(['kind', 'subject']).where('groupDid', '=', GROUP).orderBy('seq').execute()).map((c) => `${c.kind} ${c.subject}`)

describe('answered invites', () => {
  it('go from storage once redeemed, revoked or declined; the change log says which, and outstanding ones stay', async () => {
    const people = ['did:plc:redeems', 'did:plc:revoked', 'did:plc:declines', 'did:plc:waits']
    const uris = new Map<string, string>()
    for (const p of people) uris.set(p, await inTx((tx) => invite(tx, GROUP, p, `pending:${p}`, OWNER, 'Come along')))
    expect(await rows()).toEqual(people.map((p) => `${p} outstanding`).sort())

    await inTx((tx) => redeemOutstanding(tx, GROUP, 'did:plc:redeems'))
    await inTx((tx) => revokeInvite(tx, GROUP, 'did:plc:revoked'))
    await inTx((tx) => declineInvite(tx, GROUP, 'did:plc:declines'))
    expect(await rows()).toEqual(['did:plc:waits outstanding'])
    expect(await changes()).toEqual(
      expect.arrayContaining([
        `invite.redeemed ${uris.get('did:plc:redeems')}`,
        `invite.revoked ${uris.get('did:plc:revoked')}`,
        `invite.declined ${uris.get('did:plc:declines')}`,
      ]),
    )
    // Answered once, answered for good: a replayed revoke or decline finds nothing outstanding.
    await expect(inTx((tx) => revokeInvite(tx, GROUP, 'did:plc:revoked'))).rejects.toMatchObject({ customErrorName: 'InviteNotFound' })
    await expect(inTx((tx) => declineInvite(tx, GROUP, 'did:plc:declines'))).rejects.toMatchObject({ customErrorName: 'InviteNotFound' })
    // Invited again after declining: a new invite, outstanding.
    await inTx((tx) => invite(tx, GROUP, 'did:plc:declines', 'pending:did:plc:declines', OWNER, null))
    expect(await rows()).toEqual(['did:plc:declines outstanding', 'did:plc:waits outstanding'])
  })

  it(`bounds one inviter's outstanding invites across every group at ${OUTSTANDING_INVITES_PER_INVITER.toLocaleString('en')} (two full groups): a 429 naming no time, lifted as they are answered`, async () => {
    const SPAMMER = 'did:plc:invitespammer'
    const now = new Date().toISOString()
    // The bound's worth, less one, made in another group (straight into storage: the count is what is tested).
    for (let i = 0; i < OUTSTANDING_INVITES_PER_INVITER - 1; i += 500) {
      const rows = Array.from({ length: Math.min(500, OUTSTANDING_INVITES_PER_INVITER - 1 - i) }, (_, j) => ({
        uri: `pending:did:plc:target${i + j}`, groupDid: OTHER, invitee: `did:plc:target${i + j}`, message: 'Buy now', createdBy: SPAMMER, createdAt: now, expiresAt: null, status: 'outstanding' as const,
      }))
      await db.insertInto('invite').values(rows).execute()
    }
    await inTx((tx) => invite(tx, GROUP, 'did:plc:lastone', 'pending:did:plc:lastone', SPAMMER, 'Buy now'))
    await expect(inTx((tx) => invite(tx, GROUP, 'did:plc:onemore', 'pending:did:plc:onemore', SPAMMER, 'Buy now'))).rejects.toMatchObject({
      status: { limit: OUTSTANDING_INVITES_PER_INVITER, msBeforeNext: 0 },
      message: expect.stringContaining('invites waiting across this host’s groups'.replace('’', "'")),
    })
    // Someone else inviting in the same group is not held back by it.
    await inTx((tx) => invite(tx, GROUP, 'did:plc:friend', 'pending:did:plc:friend', OWNER, null))
    // One answered (declined): room for one more.
    await inTx((tx) => declineInvite(tx, OTHER, 'did:plc:target0'))
    await inTx((tx) => invite(tx, GROUP, 'did:plc:onemore', 'pending:did:plc:onemore', SPAMMER, 'Buy now'))
  })
})
