import type { JoinRequest } from '@node/lexicon/types/example/groups/defs.js'

/**
 * The person's own join request to a group, cached as one item (kind `myJoinRequest`,
 * key `self`): the host's `getJoinRequest` answer after each refresh, or the request
 * still queued in the outbox, so "waiting for an answer" shows offline too.
 */
export const MY_REQUEST = 'self'

export interface MyJoinRequestView {
  createdAt: string
  message: string | null
}

export const myJoinRequestView = (r: Pick<JoinRequest, 'createdAt' | 'message'>): MyJoinRequestView => ({ createdAt: r.createdAt, message: r.message ?? null })
