import type { Kysely } from 'kysely'

/**
 * Capacity and a waitlist for events (issue 27 point 2, spaces/standing.ts). The host
 * owns both: `event_capacity` is what an organizer set for one event (by the calendar
 * space and the event's rkey, which is its RSVPs' rkey too); `rsvp_standing` is one row
 * per member whose RSVP to that event says going, with `arrival` (the order in which
 * the host first saw them going) and their `standing`, going or waitlisted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_capacity')
    .addColumn('space', 'text', (c) => c.notNull())
    .addColumn('rkey', 'text', (c) => c.notNull())
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_capacity_pk', ['space', 'rkey'])
    .execute()
  await db.schema
    .createTable('rsvp_standing')
    .addColumn('space', 'text', (c) => c.notNull())
    .addColumn('rkey', 'text', (c) => c.notNull())
    .addColumn('repo', 'text', (c) => c.notNull())
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('arrival', 'integer', (c) => c.notNull())
    .addColumn('standing', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rsvp_standing_pk', ['space', 'rkey', 'repo'])
    .execute()
  await db.schema.createIndex('rsvp_standing_group_repo').on('rsvp_standing').columns(['groupDid', 'repo']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rsvp_standing').execute()
  await db.schema.dropTable('event_capacity').execute()
}
