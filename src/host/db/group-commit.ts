import type SqliteDatabase from 'better-sqlite3'
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely'

/** A batch commits once it holds this many writers, waiting or not. */
const MAX_BATCH = 256
/** ... or once it has been open this long while others keep the connection busy. */
const MAX_BATCH_MS = 20

/**
 * Group commit for the host's one SQLite connection (issue 18). With `synchronous =
 * FULL` every COMMIT waits for an fsync, and one transaction per request made that fsync
 * the host's ceiling. Here the requests that reach the database while a batch is open
 * all run inside one SQLite transaction, each in a savepoint of its own, and the batch
 * is committed (one fsync) as soon as nobody is waiting for the connection, or once it
 * is large or old (MAX_BATCH, MAX_BATCH_MS). A request's transaction is acknowledged
 * only after the batch's COMMIT returned, so what a caller was told is durable is on
 * disk, as before.
 *
 * A request that fails rolls back to its savepoint: its neighbours' writes stay. If the
 * COMMIT itself fails (a full disk, an I/O error), every request of the batch is told.
 * A read that runs while a batch is open may see that batch's writes, so it too is
 * answered only after the batch committed: nobody acts on a write that is not durable.
 *
 * Kysely's own SQLite driver serializes users of the connection with a mutex held until
 * release, which would also hold the batch open until each waiter finished; this driver
 * keeps its own lock, handed over in FIFO order, and releases it before waiting for the
 * commit.
 */
export class GroupCommitDialect implements Dialect {
  constructor(private readonly sqlite: SqliteDatabase.Database, private readonly prepare: (sql: string) => SqliteDatabase.Statement) {}

  createDriver(): Driver {
    return new GroupCommitDriver(this.sqlite, this.prepare)
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler()
  }
  createAdapter(): DialectAdapter {
    return new SharedConnectionAdapter()
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db)
  }
}

/** SQLite's adapter, minus Kysely's connection mutex: the driver locks (see above). */
class SharedConnectionAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true
  }
}

/** One batch: one SQLite transaction, settled once by its COMMIT (or its failure). */
interface Batch {
  openedAt: number
  members: number
  done: Promise<void>
  settle(err?: unknown): void
}

function newBatch(): Batch {
  let settle!: (err?: unknown) => void
  const done = new Promise<void>((resolve, reject) => {
    settle = (err?: unknown) => (err === undefined ? resolve() : reject(err as Error))
  })
  // Members await it; a batch nobody awaits must not be an unhandled rejection.
  done.catch(() => {})
  return { openedAt: performance.now(), members: 0, done, settle }
}

/** One user's turn with the connection (a transaction, or one query outside any). */
class Turn implements DatabaseConnection {
  /** The batch this turn read or wrote in, whose commit it waits for. */
  batch: Batch | null = null
  savepoint: string | null = null
  holdsLock = true

  constructor(private readonly driver: GroupCommitDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.run<R>(this, query)
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the host does not stream queries')
  }
}

class GroupCommitDriver implements Driver {
  private locked = false
  private readonly waiters: (() => void)[] = []
  private batch: Batch | null = null
  private savepoints = 0
  private commitScheduled = false

  constructor(private readonly sqlite: SqliteDatabase.Database, private readonly prepare: (sql: string) => SqliteDatabase.Statement) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.locked) await new Promise<void>((resolve) => this.waiters.push(resolve))
    else this.locked = true
    return new Turn(this)
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const turn = connection as Turn
    turn.batch = this.openBatch()
    turn.savepoint = `w${++this.savepoints}`
    this.exec(`SAVEPOINT ${turn.savepoint}`)
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const turn = connection as Turn
    const batch = turn.batch!
    if (turn.savepoint && this.batch === batch) this.exec(`RELEASE ${turn.savepoint}`)
    turn.savepoint = null
    this.unlock(turn)
    // Acknowledged only once durable: the batch's COMMIT has returned.
    await batch.done
    turn.batch = null
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const turn = connection as Turn
    // Only this request's writes go; the batch (and its neighbours) carries on. If the
    // batch is gone (SQLite rolled the whole transaction back), so is the savepoint.
    if (turn.savepoint && this.batch === turn.batch && this.sqlite.inTransaction) {
      this.exec(`ROLLBACK TO ${turn.savepoint}`)
      this.exec(`RELEASE ${turn.savepoint}`)
    }
    turn.savepoint = null
    this.unlock(turn)
    // turn.batch stays: releaseConnection makes a refusal wait for the batch's COMMIT too,
    // since what it read (and refused on) may be a neighbour's write not yet durable.
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const turn = connection as Turn
    this.unlock(turn)
    // A query outside a transaction, or a rolled-back one, that ran in a batch: answered
    // once the batch is durable.
    if (turn.batch && !turn.savepoint) {
      const batch = turn.batch
      turn.batch = null
      await batch.done
    }
  }

  async destroy(): Promise<void> {
    if (this.batch) this.commit()
    this.sqlite.close()
  }

  /** Runs one statement for `turn`; a write outside a transaction opens (or joins) a batch. */
  run<R>(turn: Turn, query: CompiledQuery): QueryResult<R> {
    const stmt = this.prepare(query.sql)
    // The batch this transaction ran in failed under it: nothing more of it may run
    // (outside a transaction, it would commit by itself).
    if (turn.batch && turn.batch !== this.batch) throw new Error('The database transaction this request ran in failed; nothing it wrote was kept')
    if (!turn.batch) {
      if (!stmt.reader) turn.batch = this.openBatch()
      else if (this.batch) turn.batch = this.joinBatch()
    }
    try {
      if (stmt.reader) return { rows: stmt.all(query.parameters) as R[] }
      const { changes, lastInsertRowid } = stmt.run(query.parameters)
      return { insertId: BigInt(lastInsertRowid), numAffectedRows: BigInt(changes), rows: [] }
    } catch (err) {
      this.checkBatchSurvived(err)
      throw err
    }
  }

  private openBatch(): Batch {
    if (this.batch) return this.joinBatch()
    this.exec('BEGIN IMMEDIATE')
    this.batch = newBatch()
    this.batch.members = 1
    return this.batch
  }

  private joinBatch(): Batch {
    this.batch!.members++
    return this.batch!
  }

  /**
   * Some errors (a full disk, an I/O error) make SQLite roll back the whole transaction:
   * then the batch failed, and everyone in it is told.
   */
  private checkBatchSurvived(err: unknown): void {
    if (this.batch && !this.sqlite.inTransaction) {
      const batch = this.batch
      this.batch = null
      batch.settle(err)
    }
  }

  private exec(sql: string): void {
    try {
      this.prepare(sql).run()
    } catch (err) {
      this.checkBatchSurvived(err)
      throw err
    }
  }

  /** Hands the connection to the next waiter, committing first if the batch is due. */
  private unlock(turn: Turn): void {
    if (!turn.holdsLock) return
    turn.holdsLock = false
    const batch = this.batch
    if (batch && (batch.members >= MAX_BATCH || performance.now() - batch.openedAt >= MAX_BATCH_MS)) this.commit()
    const next = this.waiters.shift()
    if (next) {
      next()
      return
    }
    this.locked = false
    // Nobody waits: commit once the requests already under way this turn of the event
    // loop had their chance to join.
    if (this.batch && !this.commitScheduled) {
      this.commitScheduled = true
      setImmediate(() => {
        this.commitScheduled = false
        if (!this.locked && this.batch) this.commit()
      })
    }
  }

  /** COMMITs the open batch (one fsync) and tells its members; only with the lock free or held by the caller. */
  private commit(): void {
    const batch = this.batch!
    this.batch = null
    try {
      this.prepare('COMMIT').run()
      batch.settle()
    } catch (err) {
      if (this.sqlite.inTransaction) {
        try {
          this.prepare('ROLLBACK').run()
        } catch {
          // Already rolled back by SQLite; nothing else to undo.
        }
      }
      batch.settle(err)
    }
  }
}
