import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import { ensureConfigurerRemains } from './assignment.js'
import { ACTIONS } from './roles.js'

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
  await recordChange(tx, groupDid, 'group.configured', groupDid)
}
