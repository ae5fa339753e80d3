import { ERROR_MESSAGES } from '@shared/errors.js'
import { formatSpaceAddress, parseSpaceAddress, spaceIndexKey } from '@shared/space-address.js'
import { markPending, putItem, readItem, readItems } from '../cache/items.js'
import { membersSpace } from '../calendar/calendar-space.js'
import { UserFacingError } from '../ipc/errors.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import type { ActionTable } from '../actions/action-spec.js'
import { viaHost } from '../actions/via-host.js'

/** A space's key in the group's space index and the cache (the contract has checked the address). */
const indexKey = (space: string) => spaceIndexKey(parseSpaceAddress(space)!)
/** A space as an outbox line names it: `<type>/<skey>`. */
const shortName = (space: string) => {
  const s = parseSpaceAddress(space)
  return s ? `${s.type}/${s.skey}` : space
}

const definedOnly = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

/** The group's spaces: making one, changing who reads and writes it, deleting it. */
export const SPACE_ACTIONS: ActionTable<'space.create' | 'space.update' | 'space.delete'> = {
  'space.create': {
    undo: 'remove',
    label: (p) => `Create the space “${p.name}”`,
    // The space index is checked first, so the same kind of space is not made twice.
    validate: async (cache, g, p) => {
      const existing = (await readItems<{ type: string; skey: string; name: string }>(cache, g, 'space')).find((sp) => sp.type === p.type && sp.skey === p.skey)
      if (existing) throw new UserFacingError('SpaceExists', `This group already has that space: “${existing.name}”.`)
    },
    applyToCache: (tx, g, p, id) => putItem(tx, g, 'space', spaceIndexKey(p), { uri: formatSpaceAddress({ authority: g, type: p.type, skey: p.skey }), ...p, wellKnown: false }, id),
    send: viaHost('example.groups.createSpace', (group, p) => ({ group, ...p })),
    conflicts: { InvalidRequest: 'A space of that kind already exists, or its settings were refused.', Forbidden: ERROR_MESSAGES.Forbidden! },
    scope: { ability: 'space.create', methods: ['example.groups.createSpace'] },
    changes: ['space.created'],
    list: 'spaces',
    confirmed: 'keep',
    identifiers: (p, { groupDid }) => [formatSpaceAddress({ authority: groupDid, type: p.type, skey: p.skey })],
  },
  'space.update': {
    undo: 'reread',
    label: (p) => `Change the space ${shortName(p.space)}`,
    applyToCache: async (tx, g, { space, ...changed }, id) => {
      const current = await readItem<Record<string, unknown>>(tx, g, 'space', indexKey(space))
      if (current) await putItem(tx, g, 'space', indexKey(space), { ...current, ...definedOnly(changed) }, id)
    },
    send: viaHost('example.groups.updateSpace', (group, p) => ({ group, ...p })),
    conflicts: { SpaceNotFound: ERROR_MESSAGES.SpaceNotFound!, WellKnownSpace: ERROR_MESSAGES.WellKnownSpace!, Forbidden: ERROR_MESSAGES.Forbidden! },
    scope: { ability: 'space.configure', methods: ['example.groups.updateSpace'] },
    changes: ['space.updated'],
    list: 'spaces',
    confirmed: 'keep',
    identifiers: (p) => [p.space],
  },
  'space.delete': {
    undo: 'unmark',
    label: (p) => `Delete the space ${shortName(p.space)}`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'space', indexKey(p.space), id),
    send: viaHost('example.groups.deleteSpace', (group, p) => ({ group, space: p.space })),
    conflicts: { SpaceNotFound: 'That space was already deleted.', WellKnownSpace: ERROR_MESSAGES.WellKnownSpace!, Forbidden: ERROR_MESSAGES.Forbidden! },
    alreadyApplied: async (rt, g, p) => {
      const host = await rt.hostOf(g)
      return host
        .query('com.atproto.space.getRecord', { space: membersSpace(g), repo: g, collection: 'example.groups.space', rkey: indexKey(p.space) })
        .then(() => false)
        .catch((err: unknown) => err instanceof XrpcCallError && err.error === 'RecordNotFound')
    },
    scope: { ability: 'space.delete', methods: ['example.groups.deleteSpace'] },
    changes: ['space.deleted'],
    list: 'spaces',
    confirmed: 'remove',
    identifiers: (p) => [p.space],
  },
}
