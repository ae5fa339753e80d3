import { CALENDAR_ACTIONS } from '../calendar/actions.js'
import { INVITE_ACTIONS } from '../invites/actions.js'
import { MEMBERSHIP_ACTIONS } from '../membership/actions.js'
import { MODERATION_ACTIONS } from '../moderation/actions.js'
import { ROLE_ACTIONS } from '../roles/actions.js'
import { SPACE_ACTIONS } from '../spaces/actions.js'
import { SETTINGS_ACTIONS } from '../settings/actions.js'
import { POST_ACTIONS } from '../posts/actions.js'
import { EVENT_IMAGE_ACTIONS } from '../calendar/image-actions.js'
import { ATTENDANCE_ACTIONS } from '../calendar/attendance-actions.js'
import type { z } from 'zod'
import { GroupAction } from '@shared/ipc/contract.js'
import { CHOSEN_WHEN_QUEUED, type ActionKind, type ActionSpec } from './action-spec.js'

/** The domain tables, each naming its own kinds. */
const TABLES = [MEMBERSHIP_ACTIONS, INVITE_ACTIONS, ROLE_ACTIONS, MODERATION_ACTIONS, CALENDAR_ACTIONS, SPACE_ACTIONS, SETTINGS_ACTIONS, POST_ACTIONS, EVENT_IMAGE_ACTIONS, ATTENDANCE_ACTIONS] as const

/**
 * Every action kind with its spec: the one registry the outbox, the catch-up and the
 * scope check read. Typed so that a kind of the contract no table names, or a table
 * naming a kind the contract lacks, does not compile.
 */
export const ACTIONS: { [K in ActionKind]: ActionSpec<K> } = { ...MEMBERSHIP_ACTIONS, ...INVITE_ACTIONS, ...ROLE_ACTIONS, ...MODERATION_ACTIONS, ...CALENDAR_ACTIONS, ...SPACE_ACTIONS, ...SETTINGS_ACTIONS, ...POST_ACTIONS, ...EVENT_IMAGE_ACTIONS, ...ATTENDANCE_ACTIONS }

// A kind two tables name would silently take the later spec: refused when the app starts (and in the unit tests).
const named = new Set<string>()
for (const kind of TABLES.flatMap((t) => Object.keys(t))) {
  if (named.has(kind)) throw new Error(`two action tables name ${kind}`)
  named.add(kind)
}

/** Whether a stored row names an action this version knows. */
export const isActionKind = (kind: string): kind is ActionKind => Object.hasOwn(ACTIONS, kind)

export const specOf = <K extends ActionKind>(kind: K): ActionSpec<K> => ACTIONS[kind]

/** The host methods each group ability's actions are sent through (for the scopes a sign-in must grant); '' is every member. */
export function actionMethodsByAbility(): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const spec of Object.values(ACTIONS) as ActionSpec<ActionKind>[]) {
    if (!spec.scope) continue
    const ability = spec.scope.ability ?? ''
    out.set(ability, [...(out.get(ability) ?? []), ...spec.scope.methods])
  }
  return out
}

/**
 * The schema of a kind's payload as the outbox stores it: the contract's (GroupAction's
 * member for the kind, without `kind`), with what the core chose when it queued it.
 */
export function payloadSchema(kind: ActionKind): z.AnyZodObject {
  const requested = GroupAction.optionsMap.get(kind)!.omit({ kind: true })
  return kind in CHOSEN_WHEN_QUEUED ? requested.merge(CHOSEN_WHEN_QUEUED[kind as keyof typeof CHOSEN_WHEN_QUEUED]) : requested
}
