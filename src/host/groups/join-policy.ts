import type { JoinPolicy } from '../db/schema.js'
import { refuse } from '../errors.js'

export const JOIN_POLICIES: readonly JoinPolicy[] = ['open', 'approval', 'invite']

/** `joinPolicy` is an open string in the lexicons; the host knows exactly three. */
export function parseJoinPolicy(value: string): JoinPolicy {
  if (!(JOIN_POLICIES as readonly string[]).includes(value)) {
    throw refuse('InvalidRequest', `Unknown join policy "${value}": use one of ${JOIN_POLICIES.join(', ')}`)
  }
  return value as JoinPolicy
}
