import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely'

/**
 * The migrations' helpers for the few places where SQL differs between SQLite and
 * PostgreSQL (db/dialect.ts keeps the live code's own `isPostgres`): a migration is
 * history and must do the same thing forever, so it uses nothing a later change to the
 * live code could alter, and a change here must leave what every released migration
 * does as it was. Not a migration itself (db/index.ts lists those).
 */

/** Whether `db` talks to PostgreSQL (else SQLite). */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/**
 * An integer primary key that numbers rows in insertion order: SQLite's
 * `INTEGER PRIMARY KEY AUTOINCREMENT`, PostgreSQL's `serial`.
 */
export function addAutoId<T extends string>(db: Kysely<unknown>, table: CreateTableBuilder<T, never>, column: string): CreateTableBuilder<T, never> {
  return isPostgres(db)
    ? table.addColumn(column, 'serial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement())
}

/**
 * Runs `fn` in a transaction: its own on SQLite (Kysely runs SQLite migrations outside
 * one), the migrations' on PostgreSQL (Kysely runs the pending ones in one there, and a
 * transaction cannot be opened inside another).
 */
export async function inTransaction<R>(db: Kysely<unknown>, fn: (tx: Kysely<unknown>) => Promise<R>): Promise<R> {
  if (db.isTransaction) return fn(db)
  return db.transaction().execute(fn)
}
