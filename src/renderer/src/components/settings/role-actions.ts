/**
 * What each action lets a role's holders do, in the settings page's words, in the order
 * it offers them (decisions section 4's actions).
 */
export const ROLE_ACTIONS: readonly { action: string; words: string }[] = [
  { action: 'admit', words: 'Admit or deny people asking to join' },
  { action: 'invite', words: 'Invite people' },
  { action: 'eject', words: 'Remove members and lift bans' },
  { action: 'role.assign', words: 'Give and take roles' },
  { action: 'mod.read', words: 'See reports' },
  { action: 'mod.resolve', words: 'Act on reports' },
  { action: 'space.create', words: 'Create spaces' },
  { action: 'space.configure', words: 'Change spaces' },
  { action: 'space.delete', words: 'Delete spaces' },
  { action: 'group.configure', words: 'Change the group’s settings and roles' },
  { action: 'repo.write', words: 'Post and change the group’s public posts and profile' },
]

/** A role name as the host takes it (putRole). */
export const ROLE_NAME = /^[a-z][a-z0-9-]{0,31}$/
