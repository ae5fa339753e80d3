/** The group lists the cache holds and a sync can read; a catch-up from the change log reads only those its changes name. */
export type ListName = 'requests' | 'invites' | 'members' | 'subjects' | 'events' | 'spaces'
export const ALL_LISTS: ReadonlySet<ListName> = new Set(['requests', 'invites', 'members', 'subjects', 'events', 'spaces'])
