import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import type { Action } from './roles.js'
import type { Viewer } from './access.js'

type Db = Kysely<HostDatabaseSchema>

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
 * Which change-log entries a member may read (`listChanges`), as a SQL condition, so a
 * page's `limit` counts only entries the caller sees. Besides the gated kinds above,
 * `record.*` entries (their subject is the record's address, `<space>/<collection>/<rkey>`)
 * show only for spaces whose `readableBy` holds one of the caller's roles; a deleted
 * space's records show to nobody, its `space.deleted` entry saying enough. The rest
 * (profile, roster and roles, spaces, which every member reads in the `members` space
 * index anyway) every member sees.
 */
export async function visibleChanges(db: Db, groupDid: string, viewer: Viewer) {
  const spaces = await db.selectFrom('space').select(['uri', 'readableBy']).where('groupDid', '=', groupDid).execute()
  const readable = spaces
    .filter((s) => viewer.roles.some((role) => (JSON.parse(s.readableBy) as string[]).includes(role)))
    .map((s) => `${s.uri}/`)
  const hidden = GATED.filter(([, action]) => !viewer.actions.has(action)).map(([prefix]) => `${prefix}.%`)

  return (eb: ExpressionBuilder<HostDatabaseSchema, 'change'>): Expression<SqlBool> => {
    // An exact prefix comparison: a space address may hold `_`, which LIKE would treat as a wildcard.
    const inReadableSpace = readable.length
      ? eb.or(readable.map((prefix) => eb(eb.fn('substr', ['subject', eb.val(1), eb.val(prefix.length)]), '=', prefix)))
      : sql<SqlBool>`0`
    return eb.and([
      ...hidden.map((pattern) => eb('kind', 'not like', pattern)),
      eb.or([eb('kind', 'not like', 'record.%'), inReadableSpace]),
    ])
  }
}
