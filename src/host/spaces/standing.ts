import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { lockGroup } from '../db/group-lock.js'
import { recordChange } from '../changes.js'
import { refuse } from '../errors.js'
import { recordUri } from './records.js'
import { takenDownAmong } from '../moderation/takedowns.js'
import { goingEvents, isRsvpCollection, MAX_CAPACITY, RSVP_COLLECTIONS, rsvpEvent, type Standing } from '../../shared/rsvp-standing.js'

type Tx = Transaction<HostDatabaseSchema>
type Db = Kysely<HostDatabaseSchema>

/**
 * Capacity and a waitlist, decided by the host, which sees every member's RSVP
 * (issue 27 point 2). An event's places are the first `capacity` members the host saw
 * going, in arrival order; the rest wait. Nobody is ever moved back by the host: a
 * lowered capacity leaves who is going going, and a place that opens (someone stops
 * going, leaves the group, or the capacity rises) goes to the first who waits, with a
 * change-log entry `rsvp.promoted` naming their RSVP, so the live stream and catch-up
 * carry it. Every step runs in the transaction that changed the RSVP (or the member, or
 * the capacity), under the group's lock taken before anything is read, so two last-place
 * RSVPs at once are decided one after the other, on SQLite and PostgreSQL alike.
 */

interface EventKey {
  space: string
  /** The event's rkey. */
  rkey: string
}

/**
 * After a member's RSVP in `space` changed (or a moderator took one down or restored
 * it): their going rows made what their RSVP records say (a new going arrives last;
 * going no longer frees their place), then each event touched settled. A record taken
 * down holds no place: a member cannot keep one with an RSVP the moderators removed,
 * and a restored one arrives last, as a new answer would.
 */
export async function afterRsvpSynced(tx: Tx, groupDid: string, space: string, repo: string): Promise<void> {
  await lockGroup(tx, groupDid)
  const records = await tx
    .selectFrom('member_record')
    .select(['collection', 'rkey', 'value'])
    .where('space', '=', space)
    .where('repo', '=', repo)
    .where('collection', 'in', [...RSVP_COLLECTIONS])
    .execute()
  const down = await takenDownAmong(
    tx,
    groupDid,
    records.map((r) => recordUri({ space, repo, collection: r.collection, rkey: r.rkey })),
  )
  const standing = records.filter((r) => !down.has(recordUri({ space, repo, collection: r.collection, rkey: r.rkey })))
  const going = goingEvents(standing.map((r) => ({ ...r, value: JSON.parse(r.value) as unknown })))
  const held = await tx.selectFrom('rsvp_standing').select('rkey').where('space', '=', space).where('repo', '=', repo).execute()
  const had = new Set(held.map((h) => h.rkey))
  const touched = new Set<string>()
  for (const rkey of had) {
    if (going.has(rkey)) continue
    await tx.deleteFrom('rsvp_standing').where('space', '=', space).where('rkey', '=', rkey).where('repo', '=', repo).execute()
    touched.add(rkey)
  }
  for (const rkey of going) {
    if (had.has(rkey)) continue
    const last = await tx.selectFrom('rsvp_standing').select((eb) => eb.fn.max('arrival').as('last')).where('space', '=', space).where('rkey', '=', rkey).executeTakeFirst()
    const arrival = Number(last?.last ?? 0) + 1
    await tx.insertInto('rsvp_standing').values({ space, rkey, repo, groupDid, arrival, standing: 'waitlisted' }).execute()
    // A newcomer takes a free place quietly (their own RSVP is the change); only someone who was waiting is "promoted".
    await settleEvent(tx, groupDid, { space, rkey }, repo)
  }
  for (const rkey of touched) await settleEvent(tx, groupDid, { space, rkey })
}

/** Before a member is removed from the group: their places are given up and go to whoever waits. */
export async function beforeMemberRemoved(tx: Tx, groupDid: string, repo: string): Promise<void> {
  await lockGroup(tx, groupDid)
  const held = await tx.selectFrom('rsvp_standing').select(['space', 'rkey']).where('groupDid', '=', groupDid).where('repo', '=', repo).execute()
  if (!held.length) return
  await tx.deleteFrom('rsvp_standing').where('groupDid', '=', groupDid).where('repo', '=', repo).execute()
  for (const e of held) await settleEvent(tx, groupDid, e)
}

/**
 * Gives free places to those waiting, first arrived first. `quiet`: a member whose own
 * RSVP just arrived, who gets a place without a promotion entry.
 */
async function settleEvent(tx: Tx, groupDid: string, event: EventKey, quiet?: string): Promise<void> {
  const capacity = await capacityOf(tx, event)
  const rows = await tx
    .selectFrom('rsvp_standing')
    .select(['repo', 'standing'])
    .where('space', '=', event.space)
    .where('rkey', '=', event.rkey)
    .orderBy('arrival')
    .execute()
  let free = capacity === undefined ? Infinity : capacity - rows.filter((r) => r.standing === 'going').length
  for (const r of rows) {
    if (free <= 0) break
    if (r.standing === 'going') continue
    await setStanding(tx, event, r.repo, 'going')
    free--
    if (r.repo !== quiet) await recordChange(tx, groupDid, 'rsvp.promoted', await rsvpAddress(tx, event, r.repo))
  }
}

const setStanding = (tx: Tx, event: EventKey, repo: string, standing: Standing) =>
  tx.updateTable('rsvp_standing').set({ standing }).where('space', '=', event.space).where('rkey', '=', event.rkey).where('repo', '=', repo).execute()

async function capacityOf(db: Db, event: EventKey): Promise<number | undefined> {
  const row = await db.selectFrom('event_capacity').select('capacity').where('space', '=', event.space).where('rkey', '=', event.rkey).executeTakeFirst()
  return row ? Number(row.capacity) : undefined
}

/**
 * The address of the member's RSVP that holds their place: the published collection's
 * when they have one for the event, else the old one's (what the change log names).
 */
async function rsvpAddress(db: Db, event: EventKey, repo: string): Promise<string> {
  const rows = await db
    .selectFrom('member_record')
    .select(['collection', 'rkey', 'value'])
    .where('space', '=', event.space)
    .where('repo', '=', repo)
    .where('collection', 'in', [...RSVP_COLLECTIONS])
    .execute()
  const answering = rows.filter((r) => rsvpEvent(r.rkey, JSON.parse(r.value)) === event.rkey)
  const best = answering.find((r) => r.collection === RSVP_COLLECTIONS[0]) ?? answering[0]
  return recordUri({ space: event.space, repo, collection: best?.collection ?? RSVP_COLLECTIONS[0], rkey: best?.rkey ?? event.rkey })
}

/** Sets (or with none, clears) an event's capacity; a rise gives the new places to whoever waits. Never demotes. */
export async function setCapacity(tx: Tx, groupDid: string, event: EventKey, capacity: number | undefined): Promise<void> {
  if (capacity !== undefined && (!Number.isInteger(capacity) || capacity < 0 || capacity > MAX_CAPACITY)) {
    throw refuse('InvalidRequest', `capacity must be a whole number from 0 to ${MAX_CAPACITY}`)
  }
  await lockGroup(tx, groupDid)
  await tx.deleteFrom('event_capacity').where('space', '=', event.space).where('rkey', '=', event.rkey).execute()
  if (capacity !== undefined) {
    await tx.insertInto('event_capacity').values({ ...event, groupDid, capacity, updatedAt: new Date().toISOString() }).execute()
  }
  await recordChange(tx, groupDid, 'event.capacitySet', recordUri({ space: event.space, repo: groupDid, collection: 'community.lexicon.calendar.event', rkey: event.rkey }))
  await settleEvent(tx, groupDid, event)
}

/**
 * An organizer moves a member who is going to the event by hand. To going: they have a
 * place even past the capacity. To the waitlist: they go to its end, and the place they
 * free goes to the first who waits (themselves, when nobody else does and there is room).
 */
export async function moveByHand(tx: Tx, groupDid: string, event: EventKey, repo: string, standing: Standing): Promise<Standing> {
  await lockGroup(tx, groupDid)
  const row = await tx.selectFrom('rsvp_standing').select('standing').where('space', '=', event.space).where('rkey', '=', event.rkey).where('repo', '=', repo).executeTakeFirst()
  if (!row) throw refuse('InvalidRequest', 'That person has not said they are going to this event')
  const uri = await rsvpAddress(tx, event, repo)
  if (standing === 'going') {
    if (row.standing !== 'going') {
      await setStanding(tx, event, repo, 'going')
      await recordChange(tx, groupDid, 'rsvp.promoted', uri)
    }
    return 'going'
  }
  if (row.standing === 'going') {
    const last = await tx.selectFrom('rsvp_standing').select((eb) => eb.fn.max('arrival').as('last')).where('space', '=', event.space).where('rkey', '=', event.rkey).executeTakeFirst()
    await tx
      .updateTable('rsvp_standing')
      .set({ standing: 'waitlisted', arrival: Number(last?.last ?? 0) + 1 })
      .where('space', '=', event.space)
      .where('rkey', '=', event.rkey)
      .where('repo', '=', repo)
      .execute()
    await recordChange(tx, groupDid, 'rsvp.waitlisted', uri)
    await settleEvent(tx, groupDid, event)
  }
  const now = await tx.selectFrom('rsvp_standing').select('standing').where('space', '=', event.space).where('rkey', '=', event.rkey).where('repo', '=', repo).executeTakeFirstOrThrow()
  return now.standing
}

export interface EventPlaces {
  capacity?: number
  going: number
  waitlisted: number
  /** Each going member's place: standing, and for those waiting their 1-based position. */
  places: Map<string, { standing: Standing; position?: number }>
}

/** An event's places as they stand. */
export async function eventPlaces(db: Db, event: EventKey): Promise<EventPlaces> {
  const capacity = await capacityOf(db, event)
  const rows = await db.selectFrom('rsvp_standing').select(['repo', 'standing']).where('space', '=', event.space).where('rkey', '=', event.rkey).orderBy('arrival').execute()
  const places = new Map<string, { standing: Standing; position?: number }>()
  let waiting = 0
  for (const r of rows) places.set(r.repo, r.standing === 'going' ? { standing: 'going' } : { standing: 'waitlisted', position: ++waiting })
  return { ...(capacity === undefined ? {} : { capacity }), going: rows.length - waiting, waitlisted: waiting, places }
}

export { isRsvpCollection }
