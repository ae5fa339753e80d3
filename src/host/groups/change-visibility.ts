import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import type { Action } from './roles.js'
import type { Viewer } from './access.js'
import { spaceFromRow } from '../spaces/space.js'
import { recordReader, recordVisibility, type RecordReader } from '../spaces/record-visibility.js'

type Db = Kysely<HostDatabaseSchema>

/** Kinds whose subject is a record's address in a space (places at events too), shown only to the space's readers. */
const SPACE_RECORD_KINDS = ['record.', 'rsvp.', 'event.'] as const

/**
 * Change kinds whose subjects only some members may see, and the action that shows them:
 * the same action that lists or decides those things (join requests and their ids need
 * `admit`, invites and invitees `invite`, reports `mod.read`, bans `eject`).
 */
const GATED: readonly (readonly [prefix: string, action: Action])[] = [
  ['joinRequest', 'admit'],
  ['invite', 'invite'],
  ['subject', 'mod.read'],
  ['ban', 'eject'],
]

/**
 * Which change-log entries a member may read, worked out once for one member of one
 * group: the kinds their roles keep from them, and the spaces whose records they may
 * hear of. Besides the gated kinds above, `record.*` entries (their subject is the
 * record's address, `<space>/<author DID>/<collection>/<rkey>`) show only for spaces whose
 * `readableBy` holds one of the caller's roles; a deleted space's records show to
 * nobody, its `space.deleted` entry saying enough. The rest (profile, roster and roles,
 * spaces, which every member reads in the `members` space index anyway) every member
 * sees. `listChanges` applies it in SQL ({@link visibleChangesWhere}), so a page's
 * `limit` counts only entries the caller sees; the change stream to each entry as it
 * goes out ({@link isVisibleChange}). Which spaces a member reads is decided once, by the
 * rule every record read uses (spaces/record-visibility.ts): an entry names a record
 * exactly when getRecord would serve its space to this member.
 */
export interface ChangeVisibility {
  /** Kind prefixes hidden from this member, with their dot (`joinRequest.`). */
  hiddenKinds: string[]
  /** Addresses of the spaces they may read, each with a trailing `/` (for the SQL form). */
  readableSpaces: string[]
  /** The member as a reader of the group's records (for the per-entry form). */
  reader: RecordReader
}

export async function changeVisibility(db: Db, groupDid: string, viewer: Viewer): Promise<ChangeVisibility> {
  const spaces = await db.selectFrom('space').selectAll().where('groupDid', '=', groupDid).execute()
  const reader = recordReader(viewer, groupDid, spaces.map(spaceFromRow))
  return {
    hiddenKinds: GATED.filter(([, action]) => !viewer.actions.has(action)).map(([prefix]) => `${prefix}.`),
    readableSpaces: [...reader.readable].map((uri) => `${uri}/`),
    reader,
  }
}

/** {@link ChangeVisibility} as a SQL condition on the `change` table. */
export function visibleChangesWhere(visibility: ChangeVisibility) {
  const { hiddenKinds, readableSpaces } = visibility
  return (eb: ExpressionBuilder<HostDatabaseSchema, 'change'>): Expression<SqlBool> => {
    // An exact prefix comparison: a space address may hold `_`, which LIKE would treat as a wildcard.
    const inReadableSpace = readableSpaces.length
      ? eb.or(readableSpaces.map((prefix) => eb(eb.fn('substr', ['subject', eb.val(1), eb.val(prefix.length)]), '=', prefix)))
      : sql<SqlBool>`0`
    return eb.and([
      ...hiddenKinds.map((prefix) => eb('kind', 'not like', `${prefix}%`)),
      eb.or([eb.and(SPACE_RECORD_KINDS.map((prefix) => eb('kind', 'not like', `${prefix}%`))), inReadableSpace]),
    ])
  }
}

/** {@link ChangeVisibility} applied to one entry: the same test as {@link visibleChangesWhere}. */
export function isVisibleChange(visibility: ChangeVisibility, change: { kind: string; subject: string | null }): boolean {
  if (visibility.hiddenKinds.some((prefix) => change.kind.startsWith(prefix))) return false
  if (!SPACE_RECORD_KINDS.some((prefix) => change.kind.startsWith(prefix))) return true
  // Entries carry an address, never a record's content: a takedown does not hide them
  // (`record.takenDown` itself is how readers learn of one), only an unreadable space does.
  return change.subject !== null && recordVisibility(visibility.reader, change.subject, false) !== 'unreadable'
}

/** Which change-log entries a member may read (`listChanges`), as a SQL condition. */
export async function visibleChanges(db: Db, groupDid: string, viewer: Viewer) {
  return visibleChangesWhere(await changeVisibility(db, groupDid, viewer))
}

/** A page of the group's log the viewer may see: entries after `after` up to `end`, oldest first. */
export async function visibleChangesPage(db: Db, groupDid: string, viewer: Viewer, range: { after: number; end: number }, limit: number) {
  return db
    .selectFrom('change')
    .selectAll()
    .where('groupDid', '=', groupDid)
    .where('seq', '>', range.after)
    .where('seq', '<=', range.end)
    .where(await visibleChanges(db, groupDid, viewer))
    .orderBy('seq')
    .limit(limit)
    .execute()
}
