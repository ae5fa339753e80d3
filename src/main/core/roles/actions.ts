import { ERROR_MESSAGES } from '@shared/errors.js'
import { putItem, readItem } from '../cache/items.js'
import type { ActionTable } from '../actions/action-spec.js'
import { viaHost } from '../actions/via-host.js'

/** Giving a member a role and taking one away. */
export const ROLE_ACTIONS: ActionTable<'member.grantRole' | 'member.revokeRole'> = {
  'member.grantRole': {
    undo: 'reread',
    label: (p, name) => `Give ${name(p.did)} the ${p.role} role`,
    applyToCache: async (tx, g, p, id) => {
      const m = await readItem<{ roles: string[] }>(tx, g, 'member', p.did)
      if (m) await putItem(tx, g, 'member', p.did, { ...m, roles: [...new Set([...m.roles, p.role])].sort() }, id)
    },
    send: viaHost('example.groups.grantRole', (group, p) => ({ group, did: p.did, role: p.role })),
    conflicts: { NotAMember: 'They are no longer a member.', NotAssignable: ERROR_MESSAGES.NotAssignable! },
    scope: { ability: 'role.assign', methods: ['example.groups.grantRole'] },
    changes: ['member.roleGranted'],
    list: 'members',
    confirmed: 'keep',
    identifiers: (p) => [p.did],
  },
  'member.revokeRole': {
    undo: 'reread',
    label: (p, name) => `Take the ${p.role} role from ${name(p.did)}`,
    applyToCache: async (tx, g, p, id) => {
      const m = await readItem<{ roles: string[] }>(tx, g, 'member', p.did)
      if (m) await putItem(tx, g, 'member', p.did, { ...m, roles: m.roles.filter((r) => r !== p.role) }, id)
    },
    send: viaHost('example.groups.revokeRole', (group, p) => ({ group, did: p.did, role: p.role })),
    conflicts: { NotAMember: 'They are no longer a member.', NotAssignable: ERROR_MESSAGES.NotAssignable!, LastConfigurer: ERROR_MESSAGES.LastConfigurer! },
    scope: { ability: 'role.assign', methods: ['example.groups.revokeRole'] },
    changes: ['member.roleRevoked'],
    list: 'members',
    confirmed: 'keep',
    identifiers: (p) => [p.did],
  },
}
