import { formatSpaceScope, SPACE_ACTIONS, spaceScopesFor, type SpaceAction } from './space-scope.js'

/**
 * Acting as a group (spec section 5, "Group session via OAuth sign-in"): the scope Convene
 * asks the group's host for, and what a granted scope lets the app do, in plain words.
 * The host narrows the scope silently to what the person's roles allow, so the app never
 * assumes it got what it asked for: it reads the granted scope (token info) and offers
 * only the actions that scope names.
 */

export const CALENDAR_SPACE_TYPE = 'community.lexicon.calendar'
export const CALENDAR_EVENT_COLLECTION = 'community.lexicon.calendar.event'

export type { SpaceAction }

/**
 * What Convene asks for when a person acts as a group: writing the group's calendar
 * events (the spec's grant shape, section 5 item 7). Nothing else a group session could
 * do is used by the app, so nothing else is asked for.
 */
export function groupSessionScope(groupDid: string): string {
  return `atproto ${calendarWrites(groupDid)}`
}

/**
 * The same for any group, as a published client metadata document declares it (it
 * cannot name groups): a group host reads it as covering each group's (decisions 7.4,
 * declared-scopes.ts).
 */
export const ANY_GROUP_SESSION_SCOPE = calendarWrites(null)

function calendarWrites(authority: string | null): string {
  return formatSpaceScope({ type: CALENDAR_SPACE_TYPE, authority, skey: 'self', collections: [CALENDAR_EVENT_COLLECTION], actions: [...SPACE_ACTIONS] })
}

/** Whether `scope` lets the session do `action` on the group's calendar events. */
export function allowsCalendar(scope: string, groupDid: string, action: SpaceAction): boolean {
  return spaceScopesFor(scope, groupDid).some(
    (p) =>
      p.type === CALENDAR_SPACE_TYPE &&
      p.skey === 'self' &&
      (p.collections.includes(CALENDAR_EVENT_COLLECTION) || p.collections.includes('*')) &&
      p.actions.includes(action),
  )
}

export const GROUP_ABILITY_KEYS = ['calendar.create', 'calendar.update', 'calendar.delete'] as const
export type GroupAbilityKey = (typeof GROUP_ABILITY_KEYS)[number]

/** What the app may do as the group, each with its plain words (for the switcher). */
export function groupAbilities(scope: string, groupDid: string): { key: GroupAbilityKey; words: string }[] {
  const words: Record<SpaceAction, string> = {
    create: 'Add events to the group’s calendar',
    update: 'Change the group’s calendar events',
    delete: 'Remove events from the group’s calendar',
  }
  return SPACE_ACTIONS.filter((a) => allowsCalendar(scope, groupDid, a)).map((a) => ({ key: `calendar.${a}` as GroupAbilityKey, words: words[a] }))
}

/** One line for the switcher: what a group session may do, e.g. "May add and change calendar events". */
export function abilitiesSummary(keys: GroupAbilityKey[]): string {
  const verbs = (['create', 'update', 'delete'] as const).filter((a) => keys.includes(`calendar.${a}`)).map((a) => ({ create: 'add', update: 'change', delete: 'remove' })[a])
  if (!verbs.length) return 'May change nothing'
  const list = verbs.length > 1 ? `${verbs.slice(0, -1).join(', ')} and ${verbs.at(-1)!}` : verbs[0]!
  return `May ${list} calendar events`
}
