import { z } from 'zod'
import { isValidDid, isValidTid } from '@atproto/syntax'
import { GroupAction } from '@shared/ipc/contract.js'

/**
 * What the core adds to an action when it queues it (groups/organizer-actions.ts
 * `queuedAction`): a new event's record key, chosen once so a replay re-sends the same
 * record, and who takes a subject ("I'm on it").
 */
const CHOSEN_WHEN_QUEUED: Partial<Record<string, z.ZodRawShape>> = {
  'event.create': { rkey: z.string().refine(isValidTid, 'not a record key') },
  'subject.event': { by: z.string().refine(isValidDid, 'not a DID').optional() },
}

/**
 * The schema of each kind's stored payload: the contract's `GroupAction` member for that
 * kind without its `kind` (stored in its own column), plus what the core chose when
 * queueing. A row is read through this before it is sent or its cached effect applied
 * again, so a shape an older (or newer) version stored is never sent as if it were ours.
 */
export const QUEUED_PAYLOADS: Readonly<Record<string, z.ZodTypeAny>> = Object.fromEntries(
  GroupAction.options.map((member) => {
    const kind = member.shape.kind.value
    return [kind, (member as z.AnyZodObject).omit({ kind: true }).extend(CHOSEN_WHEN_QUEUED[kind] ?? {})]
  }),
)

/** What a person reads on a stored action this version cannot read. */
export const UNREADABLE_ACTION =
  'This change was saved by a different version of Convene and can’t be sent as it is. Dismiss it, and make the change again if you still want it.'

/** A stored payload read with its kind's schema: ok false when it is not JSON, or not that shape. */
export function parseStored(schema: z.ZodTypeAny | undefined, json: string): { ok: true; payload: unknown } | { ok: false } {
  if (!schema) return { ok: false }
  let raw: unknown
  try {
    raw = JSON.parse(json)
  } catch {
    return { ok: false }
  }
  const parsed = schema.safeParse(raw)
  return parsed.success ? { ok: true, payload: parsed.data as unknown } : { ok: false }
}
