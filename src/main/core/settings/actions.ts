import { ERROR_MESSAGES } from '@shared/errors.js'
import { UserFacingError } from '../ipc/errors.js'
import type { ActionTable } from '../actions/action-spec.js'
import { viaHost } from '../actions/via-host.js'
import { readItems } from '../cache/items.js'

const CONFIGURE = { ability: 'group.configure', methods: ['example.groups.configureGroup', 'example.groups.putRole', 'example.groups.deleteRole'] } as const

/**
 * The group's own settings: its profile and join policy, and the roles it defines
 * (issue 25). None has a cached effect of its own: the host records `group.configured`,
 * and each is read back, so the group (its roles and what the person may do) is read
 * again as the host now has it.
 */
export const SETTINGS_ACTIONS: ActionTable<'group.configure' | 'role.put' | 'role.delete'> = {
  'group.configure': {
    undo: 'none',
    label: () => 'Change the group’s settings',
    applyToCache: async () => {},
    send: viaHost('example.groups.configureGroup', (group, p) => ({ group, ...p })),
    conflicts: { Forbidden: ERROR_MESSAGES.Forbidden! },
    scope: { ability: CONFIGURE.ability, methods: ['example.groups.configureGroup'] },
    changes: [],
    list: null,
    confirmed: 'keep',
    identifiers: (_p, { groupDid }) => [groupDid],
  },
  'role.put': {
    undo: 'none',
    label: (p) => (p.previousName && p.previousName !== p.name ? `Rename the ${p.previousName} role to ${p.name}` : `Set what the ${p.name} role may do`),
    applyToCache: async () => {},
    send: viaHost('example.groups.putRole', (group, p) => ({ group, name: p.name, actions: p.actions, assignable: p.assignable, ...(p.previousName ? { previousName: p.previousName } : {}) })),
    conflicts: { Forbidden: ERROR_MESSAGES.Forbidden!, LastConfigurer: ERROR_MESSAGES.LastConfigurer! },
    scope: { ability: CONFIGURE.ability, methods: ['example.groups.putRole'] },
    changes: [],
    list: null,
    confirmed: 'keep',
    identifiers: (_p, { groupDid }) => [groupDid],
  },
  'role.delete': {
    undo: 'none',
    label: (p) => `Delete the ${p.name} role`,
    // Taking a role from people is a decision about each of them: the host refuses to
    // delete one still held, and so does the app before it queues anything.
    validate: async (cache, groupDid, p) => {
      if (p.name === 'member') throw new UserFacingError('InvalidRequest', 'The member role is the one new members get, so it cannot be deleted.')
      const holders = (await readItems<{ roles: string[] }>(cache, groupDid, 'member')).filter((m) => m.roles.includes(p.name)).length
      if (holders > 0) throw new UserFacingError('InvalidRequest', `${holders === 1 ? 'One member holds' : `${holders} members hold`} the ${p.name} role. Take it from them first.`)
    },
    applyToCache: async () => {},
    send: viaHost('example.groups.deleteRole', (group, p) => ({ group, name: p.name })),
    conflicts: { Forbidden: ERROR_MESSAGES.Forbidden!, InvalidRequest: 'Someone still holds that role, or it is already gone: the group’s roles were read again.' },
    scope: { ability: CONFIGURE.ability, methods: ['example.groups.deleteRole'] },
    changes: [],
    list: null,
    confirmed: 'keep',
    identifiers: (_p, { groupDid }) => [groupDid],
  },
}
