import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import { ensureConfigurerRemains } from './assignment.js'
import { ACTIONS } from './roles.js'
import { putIndexRecord } from '../spaces/space-index.js'
import { spaceFromRow } from '../spaces/space.js'

type Tx = Transaction<HostDatabaseSchema>

/** A group defines at most this many roles: each is read on every authorization. */
export const MAX_ROLES = 20
/** Role names as they appear in scopes, space access lists and the app. */
const ROLE_NAME = /^[a-z][a-z0-9-]{0,31}$/
/** Admission gives this role when no other is named (decisions section 4): it always exists. */
export const DEFAULT_ROLE = 'member'

export interface RoleInput {
  name: string
  actions: string[]
  assignable: string[]
}

/**
 * Creates a role or changes what it may do (issue 25). Every authorization reads the
 * role table, so the change holds at once for every holder, their group sessions and
 * credentials included. Recorded as `group.configured` (clients read the group again).
 */
export async function putRole(tx: Tx, groupDid: string, role: RoleInput): Promise<void> {
  if (!ROLE_NAME.test(role.name)) throw refuse('InvalidRequest', `"${role.name}" is not a role name: a lowercase letter, then up to 31 lowercase letters, digits or hyphens`)
  const unknown = role.actions.filter((a) => !(ACTIONS as readonly string[]).includes(a))
  if (unknown.length) throw refuse('InvalidRequest', `Unknown actions: ${unknown.join(', ')}. Known: ${ACTIONS.join(', ')}`)
  const existing = await tx.selectFrom('role').select('name').where('groupDid', '=', groupDid).execute()
  const names = new Set(existing.map((r) => r.name))
  const isNew = !names.has(role.name)
  if (isNew && names.size >= MAX_ROLES) throw refuse('InvalidRequest', `A group has at most ${MAX_ROLES} roles`)
  names.add(role.name)
  const strangers = role.assignable.filter((r) => !names.has(r))
  if (strangers.length) throw refuse('InvalidRequest', `This group has no role ${strangers.map((r) => `"${r}"`).join(', ')} to make assignable`)
  const row = { actions: JSON.stringify([...new Set(role.actions)]), assignable: JSON.stringify([...new Set(role.assignable)]) }
  if (isNew) {
    await tx.insertInto('role').values({ groupDid, name: role.name, ...row }).execute()
    await assignableByConfigurers(tx, groupDid, role.name)
  } else await tx.updateTable('role').set(row).where('groupDid', '=', groupDid).where('name', '=', role.name).execute()
  if (!isNew) await ensureConfigurerRemains(tx, groupDid, 'That would leave nobody able to configure the group: keep group.configure in this role, or give it to someone through another role first')
  await recordChange(tx, groupDid, 'group.configured', groupDid)
}

/**
 * Those who may configure the group may define any role, so they may also hand a new one
 * out (the owner "may assign every role", decisions section 4): it joins the assignable
 * set of every role granting `group.configure`.
 */
async function assignableByConfigurers(tx: Tx, groupDid: string, name: string): Promise<void> {
  const roles = await tx.selectFrom('role').select(['name', 'actions', 'assignable']).where('groupDid', '=', groupDid).execute()
  for (const r of roles) {
    const assignable = JSON.parse(r.assignable) as string[]
    if ((JSON.parse(r.actions) as string[]).includes('group.configure') && !assignable.includes(name)) {
      await tx.updateTable('role').set({ assignable: JSON.stringify([...assignable, name]) }).where('groupDid', '=', groupDid).where('name', '=', r.name).execute()
    }
  }
}

/**
 * Deletes a role nobody holds (taking it from people is a decision about people, made
 * one by one with revokeRole), and drops it from what other roles may assign. The
 * default role stays: admission needs it.
 */
export async function deleteRole(tx: Tx, groupDid: string, name: string): Promise<void> {
  if (name === DEFAULT_ROLE) throw refuse('InvalidRequest', `"${DEFAULT_ROLE}" is the role new members get and cannot be deleted`)
  const roles = await tx.selectFrom('role').select(['name', 'assignable']).where('groupDid', '=', groupDid).execute()
  if (!roles.some((r) => r.name === name)) throw refuse('InvalidRequest', `This group has no role "${name}"`)
  const held = await tx.selectFrom('member_role').select((eb) => eb.fn.countAll<number>().as('n')).where('groupDid', '=', groupDid).where('role', '=', name).executeTakeFirstOrThrow()
  const holders = Number(held.n)
  if (holders > 0) throw refuse('InvalidRequest', `${holders} ${holders === 1 ? 'member holds' : 'members hold'} the role "${name}": take it from them first`)
  await tx.deleteFrom('role').where('groupDid', '=', groupDid).where('name', '=', name).execute()
  for (const r of roles) {
    const assignable = JSON.parse(r.assignable) as string[]
    if (r.name !== name && assignable.includes(name)) {
      await tx.updateTable('role').set({ assignable: JSON.stringify(assignable.filter((a) => a !== name)) }).where('groupDid', '=', groupDid).where('name', '=', r.name).execute()
    }
  }
  // Everywhere else the group names it too: a role made later under the same name must
  // start with nothing, not inherit what this one could read or write (issue 35).
  await renameInGrants(tx, groupDid, name, null)
  await recordChange(tx, groupDid, 'group.configured', groupDid)
}

/** The built-in roles keep their names: the spec, other apps and new groups name them. */
const BUILT_IN = new Set(['owner', 'admin', 'moderator', DEFAULT_ROLE])

/** A JSON array of role names with `from` replaced by `to` (removed when `to` is null), or null when it does not hold `from`. */
function renamedIn(json: string, from: string, to: string | null): string | null {
  const names = JSON.parse(json) as string[]
  if (!names.includes(from)) return null
  return JSON.stringify(to === null ? names.filter((n) => n !== from) : [...new Set(names.map((n) => (n === from ? to : n)))])
}

/**
 * Renames a custom role, in one transaction, everywhere the group names it: its holders
 * keep it under the new name, other roles may still assign it, spaces still let it read
 * and still give it a credential, and group sessions granted with it stay live (their
 * refresh checks the roles they were granted with). The built-in roles keep their names.
 * Recorded as `group.configured` like any change to the roles (the audit log names who).
 */
export async function renameRole(tx: Tx, groupDid: string, from: string, to: string): Promise<void> {
  if (BUILT_IN.has(from)) throw refuse('InvalidRequest', `"${from}" is a built-in role; its name stays`)
  if (!ROLE_NAME.test(to)) throw refuse('InvalidRequest', `"${to}" is not a role name: a lowercase letter, then up to 31 lowercase letters, digits or hyphens`)
  const roles = await tx.selectFrom('role').select(['name', 'assignable']).where('groupDid', '=', groupDid).execute()
  if (!roles.some((r) => r.name === from)) throw refuse('InvalidRequest', `This group has no role "${from}"`)
  if (roles.some((r) => r.name === to)) throw refuse('InvalidRequest', `This group already has a role "${to}"`)
  await tx.updateTable('role').set({ name: to }).where('groupDid', '=', groupDid).where('name', '=', from).execute()
  await tx.updateTable('member_role').set({ role: to }).where('groupDid', '=', groupDid).where('role', '=', from).execute()
  for (const r of roles) {
    const assignable = renamedIn(r.assignable, from, to)
    if (assignable) await tx.updateTable('role').set({ assignable }).where('groupDid', '=', groupDid).where('name', '=', r.name === from ? to : r.name).execute()
  }
  await renameInGrants(tx, groupDid, from, to)
  await recordChange(tx, groupDid, 'group.configured', groupDid)
}

/**
 * A role's name where the group grants by it: the spaces it may read and get a
 * credential for (with their index records), group sessions granted with it and consents
 * not yet exchanged. Renamed to `to`, or removed when `to` is null (the role deleted).
 */
async function renameInGrants(tx: Tx, groupDid: string, from: string, to: string | null): Promise<void> {
  const spaces = await tx.selectFrom('space').selectAll().where('groupDid', '=', groupDid).execute()
  const now = new Date().toISOString()
  for (const row of spaces) {
    const readableBy = renamedIn(row.readableBy, from, to)
    const scopes = JSON.parse(row.credentialScopes) as { role: string; scopes: string[] }[]
    const credentialScopes = scopes.some((c) => c.role === from)
      ? JSON.stringify(to === null ? scopes.filter((c) => c.role !== from) : scopes.map((c) => (c.role === from ? { ...c, role: to } : c)))
      : null
    if (!readableBy && !credentialScopes) continue
    const next = { ...row, readableBy: readableBy ?? row.readableBy, credentialScopes: credentialScopes ?? row.credentialScopes, updatedAt: now }
    await tx.updateTable('space').set({ readableBy: next.readableBy, credentialScopes: next.credentialScopes, updatedAt: now }).where('uri', '=', row.uri).execute()
    // The space's index record in the members space says who may read it: it follows.
    await putIndexRecord(tx, spaceFromRow(next), now)
    await recordChange(tx, groupDid, 'space.updated', row.uri)
  }
  const sessions = await tx.selectFrom('oauth_session').select(['id', 'roles']).where('groupDid', '=', groupDid).execute()
  for (const s of sessions) {
    const held = renamedIn(s.roles, from, to)
    if (held) await tx.updateTable('oauth_session').set({ roles: held }).where('id', '=', s.id).execute()
  }
  // A consent given but not yet exchanged for tokens grants the roles it named, too.
  const asked = await tx.selectFrom('oauth_request').select(['id', 'roles']).where('groupDid', '=', groupDid).where('roles', 'is not', null).execute()
  for (const q of asked) {
    const held = renamedIn(q.roles!, from, to)
    if (held) await tx.updateTable('oauth_request').set({ roles: held }).where('id', '=', q.id).execute()
  }
}
