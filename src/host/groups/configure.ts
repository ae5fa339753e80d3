import type { Transaction } from 'kysely'
import type { GroupTable, HostDatabaseSchema } from '../db/schema.js'
import { recordChange } from '../changes.js'
import { parseJoinPolicy } from './join-policy.js'
import { setAvatar } from './avatar.js'

type ProfileChange = Partial<Pick<GroupTable, 'displayName' | 'description' | 'joinPolicy'>>

/** What `configureGroup` asks to change: fields left out stay; an empty name or description clears it. */
export function profileChange(input: { displayName?: string; description?: string; joinPolicy?: string }): ProfileChange {
  const set: ProfileChange = {}
  if (input.displayName !== undefined) set.displayName = input.displayName || null
  if (input.description !== undefined) set.description = input.description || null
  if (input.joinPolicy !== undefined) set.joinPolicy = parseJoinPolicy(input.joinPolicy)
  return set
}

/**
 * Applies a profile change (`group.configured`), and the avatar (`null`: removed;
 * undefined: left as it is); an empty change changes and records nothing.
 */
export async function configureGroup(tx: Transaction<HostDatabaseSchema>, groupDid: string, set: ProfileChange, avatar?: { mime: string; data: string } | null): Promise<void> {
  if (Object.keys(set).length === 0 && avatar === undefined) return
  if (Object.keys(set).length) await tx.updateTable('group').set(set).where('did', '=', groupDid).execute()
  if (avatar !== undefined) await setAvatar(tx, groupDid, avatar)
  await recordChange(tx, groupDid, 'group.configured', groupDid)
}
