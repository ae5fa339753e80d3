import type { Kysely } from 'kysely'
import type { IdResolver } from '@atproto/identity'
import type { GroupTable, HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { GROUPS_SERVICE_ID } from '../identity/plc.js'
import { resolveDidDocument } from '../identity/resolve-did.js'
import { ACTIONS, type Action } from './roles.js'

type Db = Kysely<HostDatabaseSchema>

/** What finding a group needs: the database, and DID resolution to tell where one hosted elsewhere lives. */
export interface GroupLookup {
  db: Db
  idResolver: IdResolver
  config: { publicUrl: string }
}

/**
 * The group named by a call's `group` parameter. Unknown here: `NotHosted` when its DID
 * document names another host, else `InvalidRequest` "unknown group"; a PLC that cannot
 * be reached to tell is a 503.
 */
export async function loadGroup(ctx: GroupLookup, did: string, db: Db = ctx.db): Promise<GroupTable> {
  const group = await db.selectFrom('group').selectAll().where('did', '=', did).executeTakeFirst()
  if (group) return group
  const doc = await resolveDidDocument(ctx.idResolver, did)
  const service = doc?.service?.find((s) => s.id === `#${GROUPS_SERVICE_ID}` || s.id === `${did}#${GROUPS_SERVICE_ID}`)
  if (service && service.serviceEndpoint !== ctx.config.publicUrl) {
    throw refuse('NotHosted', `The group ${did} is hosted at ${String(service.serviceEndpoint)}, not on this host`)
  }
  throw refuse('InvalidRequest', 'unknown group')
}

/** What a caller is in a group: their roles and the actions and assignments those give. */
export interface Viewer {
  did: string
  isMember: boolean
  roles: string[]
  actions: Set<Action>
  /** Per action, the roles the caller may assign through a role that grants it. */
  assignableVia(action: Action): Set<string>
}

export async function viewerOf(db: Db, groupDid: string, did: string): Promise<Viewer> {
  const member = await db
    .selectFrom('member')
    .select('did')
    .where('groupDid', '=', groupDid)
    .where('did', '=', did)
    .executeTakeFirst()
  const roleRows = member
    ? await db
        .selectFrom('member_role')
        .innerJoin('role', (j) => j.onRef('role.groupDid', '=', 'member_role.groupDid').onRef('role.name', '=', 'member_role.role'))
        .select(['role.name', 'role.actions', 'role.assignable'])
        .where('member_role.groupDid', '=', groupDid)
        .where('member_role.did', '=', did)
        .execute()
    : []
  const roles = roleRows.map((r) => ({
    name: r.name,
    // Unknown actions confer nothing (decisions section 4).
    actions: (JSON.parse(r.actions) as string[]).filter((a): a is Action => (ACTIONS as readonly string[]).includes(a)),
    assignable: JSON.parse(r.assignable) as string[],
  }))
  return {
    did,
    isMember: !!member,
    roles: roles.map((r) => r.name).sort(),
    actions: new Set(roles.flatMap((r) => r.actions)),
    assignableVia(action) {
      // `assignable` counts only for a role binding that grants the action being used.
      return new Set(roles.filter((r) => r.actions.includes(action)).flatMap((r) => r.assignable))
    },
  }
}

/** Refuses with `Forbidden` unless the caller's roles grant `action`. */
export function requireAction(viewer: Viewer, action: Action): void {
  if (!viewer.actions.has(action)) {
    throw refuse('Forbidden', `This needs the "${action}" permission, which your roles in this group do not grant`)
  }
}

/** The group a call names, and who the caller is in it (read outside any transaction). */
export async function groupAndViewer(ctx: GroupLookup, groupDid: string, callerDid: string): Promise<{ group: GroupTable; viewer: Viewer }> {
  const group = await loadGroup(ctx, groupDid)
  return { group, viewer: await viewerOf(ctx.db, group.did, callerDid) }
}

/** The group a call names, once the caller's roles there are known to grant `action` (else `Forbidden`). */
export async function groupWhereCallerMay(ctx: GroupLookup, groupDid: string, callerDid: string, action: Action): Promise<GroupTable> {
  const { group, viewer } = await groupAndViewer(ctx, groupDid, callerDid)
  requireAction(viewer, action)
  return group
}

/** How many members hold a role granting `group.configure` (for `LastConfigurer`). */
export async function configurers(db: Db, groupDid: string): Promise<string[]> {
  const rows = await db
    .selectFrom('member_role')
    .innerJoin('role', (j) => j.onRef('role.groupDid', '=', 'member_role.groupDid').onRef('role.name', '=', 'member_role.role'))
    .select(['member_role.did', 'role.actions'])
    .where('member_role.groupDid', '=', groupDid)
    .execute()
  return [...new Set(rows.filter((r) => (JSON.parse(r.actions) as string[]).includes('group.configure')).map((r) => r.did))]
}
