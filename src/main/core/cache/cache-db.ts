import fs from 'node:fs'
import path from 'node:path'
import { createHash } from 'node:crypto'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import * as m001 from './migrations/001-cache.js'
import * as m002 from './migrations/002-item-revision.js'
import * as m003 from './migrations/003-item-change.js'
import * as m004 from './migrations/004-person.js'
import * as m005 from './migrations/005-live-cursor.js'
import * as m006 from './migrations/006-outbox-backoff.js'
import * as m007 from './migrations/007-item-prior.js'
import * as m008 from './migrations/008-profile.js'
import * as m009 from './migrations/009-event-image.js'

/** What the app shows for one group, as last seen from its host. */
export interface GroupRowTable {
  did: string
  /** JSON of the GroupSummary the renderer shows. */
  view: string
  hostUrl: string
  hostAud: string
  /** listChanges cursor: where to resume catching up. */
  changeCursor: string | null
  syncedAt: string | null
}

/** One cached list item of a group: a member, a join request, an invite, a subject, a space, an event. */
export interface ItemTable {
  groupDid: string
  kind: string
  key: string
  /** JSON of the item as the renderer shows it. */
  view: string
  /** Set while a queued action has changed this item and the host has not confirmed. */
  pendingAction: number | null
  /** What the row was before that action changed it in place (see PriorRow; migration 007). */
  prior: string | null
}

export type OutboxState = 'queued' | 'sending' | 'done' | 'conflict' | 'failed'

export interface OutboxTable {
  id: number
  /** Sent along where the host takes one (reports: createReport's idempotencyKey), so a replay is recognised. */
  idempotencyKey: string
  groupDid: string
  kind: string
  /** JSON of the action's input. */
  payload: string
  /** Plain-language description for the queue view. */
  label: string
  state: OutboxState
  attempts: number
  lastError: string | null
  createdAt: string
  updatedAt: string
  /** Tries a transient failure cut short, toward the outbox's cap (migration 006). */
  failures: number
  /** When the next try is due after a transient failure (ISO); null: at the next pass (migration 006). */
  nextAttemptAt: string | null
}

/** Moved by triggers on every write to `item` (migration 002): how stale a kept copy is. */
export interface ItemRevisionTable {
  groupDid: string
  kind: string
  n: number
}

/** Which item each revision step touched, the last 1,000 per list (migration 003). */
export interface ItemChangeTable {
  groupDid: string
  kind: string
  n: number
  key: string
}

/** A person's handle, verified both ways, or null when they have none that checks out (migration 004). */
export interface PersonTable {
  did: string
  handle: string | null
  checkedAt: string
}

/** A person's profile as last read from their PDS (migration 008; people/profile-cache.ts). */
export interface ProfileTable {
  did: string
  displayName: string | null
  description: string | null
  /** A small avatar as a data: URL. */
  avatar: string | null
  avatarCid: string | null
  accountCreatedAt: string | null
  checkedAt: string
}

/** One event image's bytes as a data: URL, by group and blob CID (or `pending:<outbox id>`; migration 009). */
export interface EventImageTable {
  groupDid: string
  cid: string
  url: string
  fetchedAt: string
}

/** Where a host's live change stream left off for this account (migration 005). */
export interface LiveCursorTable {
  hostUrl: string
  cursor: string
  updatedAt: string
}

export interface CacheSchema {
  group_row: GroupRowTable
  item: ItemTable
  item_revision: ItemRevisionTable
  item_change: ItemChangeTable
  outbox: OutboxTable
  person: PersonTable
  profile: ProfileTable
  live_cursor: LiveCursorTable
  event_image: EventImageTable
}

export type CacheDb = Kysely<CacheSchema>

const migrations: Record<string, Migration> = { '001-cache': m001, '002-item-revision': m002, '003-item-change': m003, '004-person': m004, '005-live-cursor': m005, '006-outbox-backoff': m006, '007-item-prior': m007, '008-profile': m008, '009-event-image': m009 }

/**
 * One SQLite file per account: cached views (shown at once on start) and the outbox.
 * It holds no secret: no tokens, no keys. The file name hashes the DID.
 */
export async function openCacheDb(dir: string, accountDid: string): Promise<CacheDb> {
  fs.mkdirSync(dir, { recursive: true })
  const name = createHash('sha256').update(accountDid).digest('hex').slice(0, 24)
  const sqlite = new SqliteDatabase(path.join(dir, `${name}.sqlite`))
  sqlite.pragma('journal_mode = WAL')
  // The outbox must survive the app being killed right after an action is acknowledged.
  sqlite.pragma('synchronous = FULL')
  const db = new Kysely<CacheSchema>({ dialect: new SqliteDialect({ database: sqlite }) })
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()
  if (error) throw error
  return db
}
