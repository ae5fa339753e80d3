import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * The few places where the host's SQL differs between SQLite and PostgreSQL (issue 18).
 * Everything else is written once, with Kysely's builders and portable types; the rule
 * for new migrations is in docs/host-operations.md, and the helpers they use are their
 * own (migrations/portable.ts).
 */

/** Whether `db` talks to PostgreSQL (else SQLite). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/** The advisory lock held while a host process starts ("conv" in ASCII; any fixed number would do). */
const STARTING_LOCK = 0x636f6e76

/**
 * Runs `fn` while no other host process on the same PostgreSQL database is starting:
 * checking the host key, minting the service DID and its keys, and seeding read and then
 * write, and two processes started together on a new database would each mint a service
 * DID. A session advisory lock, held on one pooled connection while `fn` uses the others,
 * so a process that crashes meanwhile releases it. On SQLite only one process serves a
 * database, and `fn` just runs.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema
export async function whileNoOtherStarts<R>(db: Kysely<any>, fn: () => Promise<R>): Promise<R> {
  if (!isPostgres(db)) return fn()
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${STARTING_LOCK})`.execute(conn)
    try {
      return await fn()
    } finally {
      await sql`SELECT pg_advisory_unlock(${STARTING_LOCK})`.execute(conn)
    }
  })
}
