import { describe, expect, it } from 'vitest'
import type { HostDb } from '../../src/host/db/index.js'
import { useOwnHostDb } from '../support/own-host-db.js'
import { afterRsvpSynced } from '../../src/host/spaces/standing.js'

/**
 * Two last-place "going" RSVPs decided at once (issue 27 point 2), made to overlap for
 * certain: the first transaction has given its member a place but not committed when
 * the second starts. Under the group's lock the second waits and sees the first's place
 * taken; without it (PostgreSQL's READ COMMITTED) the second would count the place still
 * free and both would be going. On SQLite the store runs one transaction at a time.
 */
let db: HostDb
useOwnHostDb({}, (d) => (db = d))

const G = 'did:plc:racegroup'
const SPACE = `at://${G}/space/community.lexicon.calendar/self`
const EVENT = '3kraceevent22'
const [A, B, C] = ['did:plc:racea', 'did:plc:raceb', 'did:plc:racec']
const now = new Date().toISOString()

const going = (repo: string) => ({
  groupDid: G,
  space: SPACE,
  repo,
  collection: 'example.groups.rsvp',
  rkey: EVENT,
  cid: 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm',
  value: JSON.stringify({ subject: `${SPACE}/${G}/community.lexicon.calendar.event/${EVENT}`, status: 'going' }),
  indexedAt: now,
})

describe('the last place, asked for twice at once', () => {
  it('goes to exactly one of them', async () => {
    await db.insertInto('group').values({ did: G, handle: 'race.groups.test', displayName: null, description: null, joinPolicy: 'open', rotationKeySealed: 'x', createdAt: now, createdBy: null }).execute()
    await db.insertInto('member').values([A, B, C].map((did) => ({ groupDid: G, did, joinedAt: now, acceptedAt: null }))).execute()
    await db
      .insertInto('space')
      .values({ uri: SPACE, groupDid: G, type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar', readableBy: '["member"]', credentialScopes: '[]', createdAt: now, updatedAt: now })
      .execute()
    await db.insertInto('event_capacity').values({ space: SPACE, rkey: EVENT, groupDid: G, capacity: 2, updatedAt: now }).execute()
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('member_record').values(going(A)).execute()
      await afterRsvpSynced(tx, G, SPACE, A)
    })

    let firstHasIt!: () => void
    const firstReady = new Promise<void>((r) => (firstHasIt = r))
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const first = db.transaction().execute(async (tx) => {
      await tx.insertInto('member_record').values(going(B)).execute()
      await afterRsvpSynced(tx, G, SPACE, B)
      firstHasIt()
      await held
    })
    await firstReady
    const second = db.transaction().execute(async (tx) => {
      await tx.insertInto('member_record').values(going(C)).execute()
      await afterRsvpSynced(tx, G, SPACE, C)
    })
    // Time for the second to decide, were it not made to wait.
    await new Promise((r) => setTimeout(r, 300))
    release()
    await Promise.all([first, second])

    const rows = await db.selectFrom('rsvp_standing').select(['repo', 'standing']).where('space', '=', SPACE).where('rkey', '=', EVENT).orderBy('arrival').execute()
    expect(rows).toEqual([
      { repo: A, standing: 'going' },
      { repo: B, standing: 'going' },
      { repo: C, standing: 'waitlisted' },
    ])
  })
})
