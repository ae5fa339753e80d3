import type { OAuthSession } from '@atproto/oauth-client'
import { UserFacingError } from '../ipc/errors.js'
import { plainMessage } from '../../../shared/errors.js'
import { readXrpc, XrpcCallError } from '../xrpc/xrpc-error.js'

/**
 * A member's own records (acceptance, RSVPs) go to their own PDS through their own
 * session, `repo` = their DID (spec section 4). A stored write is not proof of
 * membership: the host decides afterwards (section 3).
 */
export async function memberWrite(
  session: OAuthSession,
  method: 'com.atproto.space.putRecord' | 'com.atproto.space.deleteRecord',
  body: { space: string; collection: string; rkey: string; record?: Record<string, unknown> },
): Promise<void> {
  let res: Response
  try {
    res = await session.fetchHandler(`/xrpc/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, repo: session.did }),
    })
  } catch (err) {
    throw new XrpcCallError(method, 0, 'HostUnreachable', (err as Error).message)
  }
  if (res.status === 404 || res.status === 501) {
    await res.body?.cancel()
    throw new UserFacingError('SpacesUnsupported', plainMessage('SpacesUnsupported'))
  }
  await readXrpc(method, res)
}
