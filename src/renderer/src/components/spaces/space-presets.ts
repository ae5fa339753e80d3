/**
 * The spaces an organizer can start from, in plain words. Each is a space of the spec
 * (a type, a key, and per role who reads it and what the group's credential may write):
 * the organizer picks what it is for, and the type, key and access record follow.
 * "Custom" (the raw fields) stays for anyone who needs another kind.
 */

export interface SpaceSettings {
  type: string
  skey: string
  name: string
  readableBy: string[]
  credentialScopes: { role: string; scopes: string[] }[]
}

export interface SpacePreset {
  id: string
  /** What the organizer chooses, and one sentence on who it is for. */
  title: string
  description: string
  settings: SpaceSettings
}

/** Who runs the group; moderators read what organizers read, so they can do their work there. */
const ORGANIZERS = ['owner', 'admin', 'moderator']
const EVERYONE = ['owner', 'admin', 'moderator', 'member']
const EVENT_COLLECTIONS = ['community.lexicon.calendar.event', 'example.groups.eventImage', 'example.groups.attendance']

const PRESETS: SpacePreset[] = [
  {
    id: 'calendar',
    title: 'Members-only calendar',
    description: 'Events every member can see. Owners and admins add them in the group’s name. This is the Calendar tab’s space.',
    settings: {
      type: 'community.lexicon.calendar',
      skey: 'self',
      name: 'Calendar',
      readableBy: EVERYONE,
      credentialScopes: [
        { role: 'owner', scopes: EVENT_COLLECTIONS },
        { role: 'admin', scopes: EVENT_COLLECTIONS },
      ],
    },
  },
  {
    id: 'organizers',
    title: 'Private space for organizers',
    description: 'Only owners, admins and moderators can see it. Owners and admins write in it in the group’s name.',
    settings: {
      type: 'example.groups.organizers',
      skey: 'self',
      name: 'Organizers',
      readableBy: ORGANIZERS,
      credentialScopes: [
        { role: 'owner', scopes: ['*'] },
        { role: 'admin', scopes: ['*'] },
      ],
    },
  },
  {
    id: 'announcements',
    title: 'Announcements for members',
    description: 'Every member can read it; only owners and admins post in it, in the group’s name.',
    settings: {
      type: 'example.groups.announcements',
      skey: 'self',
      name: 'Announcements',
      readableBy: EVERYONE,
      credentialScopes: [
        { role: 'owner', scopes: ['*'] },
        { role: 'admin', scopes: ['*'] },
      ],
    },
  },
]

/**
 * The presets for a group, each narrowed to the roles the group has (a group without a
 * moderator role cannot name one), and whether the group already has that space (the
 * index is checked first, so no second one is made).
 */
export function spacePresets(groupRoles: string[], existing: { type: string; skey: string }[]): (SpacePreset & { taken: boolean })[] {
  const has = new Set(groupRoles)
  return PRESETS.map((p) => ({
    ...p,
    settings: {
      ...p.settings,
      readableBy: p.settings.readableBy.filter((r) => has.has(r)),
      credentialScopes: p.settings.credentialScopes.filter((c) => has.has(c.role)),
    },
    taken: existing.some((s) => s.type === p.settings.type && s.skey === p.settings.skey),
  }))
}

/** Roles a new custom space is read by at first: every role, moderators included (they cannot moderate what they cannot read). */
export const defaultReaders = (groupRoles: string[]) => [...groupRoles]
