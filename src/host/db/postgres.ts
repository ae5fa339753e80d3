import pg from 'pg'
import { Kysely, PostgresDialect, sql } from 'kysely'
import type { HostDatabaseSchema } from './schema.js'

/** Connections per host process: requests beyond these wait in the pool's queue. */
const POOL_SIZE = 10

/** Whether `--db` names a PostgreSQL database (else the host uses SQLite in --data-dir). */
export const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//i.test(url)

/**
 * `count(*)` and other int8 values as numbers, as SQLite gives them (pg's default is a
 * string, since int8 can exceed 2^53; the host's counts and ids stay far below).
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
}

/**
 * The host's database on PostgreSQL (issue 18): every piece of state in one database, so
 * several host processes behind one address agree. The URL may hold a password: it is
 * never logged (the host logs only that it uses PostgreSQL).
 */
export async function openPostgres(url: string): Promise<Kysely<HostDatabaseSchema>> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, types })
  const db = new Kysely<HostDatabaseSchema>({ dialect: new PostgresDialect({ pool }) })
  try {
    await checkCollation(db)
  } catch (err) {
    await db.destroy()
    throw err
  }
  return db
}

/**
 * Pages and cursors compare text byte by byte, as SQLite does; a database created with a
 * linguistic collation (en_US.UTF-8 ignores punctuation) would page differently. The
 * host refuses such a database rather than page wrongly.
 */
async function checkCollation(db: Kysely<HostDatabaseSchema>): Promise<void> {
  const { rows } = await sql<{ datcollate: string }>`SELECT datcollate FROM pg_database WHERE datname = current_database()`.execute(db)
  const collate = rows[0]?.datcollate ?? ''
  if (!/^(C|POSIX|C\.UTF-?8)$/i.test(collate)) {
    throw new Error(
      `The PostgreSQL database uses the collation "${collate}"; the host needs byte order ("C"). Create it with: CREATE DATABASE <name> TEMPLATE template0 LOCALE 'C' ENCODING 'UTF8'`,
    )
  }
}
