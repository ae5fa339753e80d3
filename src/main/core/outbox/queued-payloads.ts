import { z } from 'zod'

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
