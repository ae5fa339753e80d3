import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { schemaDict } from '../../node/lexicon/lexicons.js'

/**
 * Roles and actions (docs/decisions section 4). Unknown actions confer nothing; a
 * member's effective actions are the union over their roles. The actions are the
 * knownValues of example.groups.defs#role, read from the generated lexicons.
 */
export const ACTIONS = schemaDict.ExampleGroupsDefs.defs.role.properties.actions.items.knownValues
export type Action = (typeof ACTIONS)[number]

export interface RoleDefinition {
  name: string
  actions: Action[]
  assignable: string[]
}

/** What a new group starts with. */
export const DEFAULT_ROLES: readonly RoleDefinition[] = [
  { name: 'owner', actions: [...ACTIONS], assignable: ['owner', 'admin', 'moderator', 'member'] },
  {
    name: 'admin',
    actions: ACTIONS.filter((a) => a !== 'space.delete' && a !== 'group.configure'),
    assignable: ['moderator', 'member'],
  },
  { name: 'moderator', actions: ['mod.read', 'mod.resolve'], assignable: [] },
  { name: 'member', actions: [], assignable: [] },
]

/** A group's role definitions, most powerful first (owner, admin, moderator, member for the defaults), then by name. */
export async function roleDefinitions(db: Kysely<HostDatabaseSchema>, groupDid: string): Promise<{ name: string; actions: string[]; assignable: string[] }[]> {
  const rows = await db.selectFrom('role').selectAll().where('groupDid', '=', groupDid).execute()
  return rows
    .map((r) => ({ name: r.name, actions: JSON.parse(r.actions) as string[], assignable: JSON.parse(r.assignable) as string[] }))
    .sort((a, b) => b.actions.length - a.actions.length || a.name.localeCompare(b.name))
}
