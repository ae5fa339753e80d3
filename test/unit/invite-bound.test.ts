import { describe, expect, it } from 'vitest'
import { hostDbAtLatest } from '../support/host-migrations.js'
import { invite, OUTSTANDING_INVITES_PER_GROUP } from '../../src/host/membership/invites.js'

const GROUP = 'did:plc:invitegroupaaaaaaaaaaaaa'
const OTHER = 'did:plc:othergroupaaaaaaaaaaaaaa'
const ORGANIZER = 'did:plc:organizeraaaaaaaaaaaaaaa'
const guest = (i: number) => `did:plc:guest${String(i).padStart(6, '0')}xxxxxxxxxxxxx`

describe('invites one group keeps waiting (issue 35 #11)', () => {
  it('are bounded: past the bound a new invite is refused with 429 until one is answered or revoked; other groups are not held back', async () => {
    const db = await hostDbAtLatest()
    const now = new Date().toISOString()
    for (const [did, handle] of [[GROUP, 'invites'], [OTHER, 'other']]) {
      await db.insertInto('group').values({ did: did!, handle: `${handle}.groups.test`, displayName: null, description: null, joinPolicy: 'invite', rotationKeySealed: 'x', createdAt: now, createdBy: null }).execute()
    }
    const rows = Array.from({ length: OUTSTANDING_INVITES_PER_GROUP }, (_, i) => ({ uri: `at://${GROUP}/example.groups.invite/${i}`, groupDid: GROUP, invitee: guest(i), message: null, createdBy: ORGANIZER, createdAt: now, expiresAt: null, status: 'outstanding' as const }))
    for (let i = 0; i < rows.length; i += 1000) await db.insertInto('invite').values(rows.slice(i, i + 1000)).execute()
    const next = guest(OUTSTANDING_INVITES_PER_GROUP)
    const inviteNext = (group: string) => db.transaction().execute((tx) => invite(tx, group, next, `at://${group}/example.groups.invite/next`, ORGANIZER, 'Come along'))

    await expect(inviteNext(GROUP)).rejects.toMatchObject({ type: 429, message: expect.stringMatching(/10,000 invites waiting/) })
    // Asking again for someone already invited answers their invite: it adds nothing.
    expect(await db.transaction().execute((tx) => invite(tx, GROUP, guest(0), 'at://x/y/z', ORGANIZER, null))).toBe(rows[0]!.uri)
    expect(await inviteNext(OTHER)).toBe(`at://${OTHER}/example.groups.invite/next`)

    await db.updateTable('invite').set({ status: 'revoked' }).where('uri', '=', rows[0]!.uri).execute()
    expect(await inviteNext(GROUP)).toBe(`at://${GROUP}/example.groups.invite/next`)
  })
})
