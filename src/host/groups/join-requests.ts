import type { JoinRequestTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'
import { refuse } from '../errors.js'

/** A stored request as the lexicons show it (`example.groups.defs#joinRequest`). */
export function joinRequestView(row: JoinRequestTable): Defs.JoinRequest {
  return {
    id: row.id,
    did: row.did,
    createdAt: row.createdAt,
    ...(row.message !== null ? { message: row.message } : {}),
    ...(row.invite !== null ? { invite: row.invite } : {}),
  }
}

/**
 * Pending requests are listed oldest first. Two can share a millisecond, so the sort
 * key, and the cursor, is the creation time and then the id.
 */
export const requestKey = (row: { createdAt: string; id: string }) => `${row.createdAt} ${row.id}`

export function parseRequestKey(key: string): { createdAt: string; id: string } {
  const [createdAt, id, ...rest] = key.split(' ')
  if (!createdAt || !id || rest.length) throw refuse('InvalidRequest', 'Malformed cursor')
  return { createdAt, id }
}
