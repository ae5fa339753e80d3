import type { ActionDeps } from '../actions/action-spec.js'
import type { PublicPost } from '../../../shared/ipc/post-views.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { POST_COLLECTION, PROFILE_COLLECTION } from './post-record.js'

/** How many of the latest posts the window shows. */
const SHOWN = 20

/**
 * The group's latest public posts, read live from its repository on the host (anyone may
 * read them, as from any PDS). A group that never posted has no repository yet: none.
 */
export async function publicPosts(rt: ActionDeps, groupDid: string): Promise<PublicPost[]> {
  const host = await rt.hostOf(groupDid)
  let records
  try {
    ;({ records } = await host.publicQuery('com.atproto.repo.listRecords', { repo: groupDid, collection: POST_COLLECTION, limit: SHOWN }))
  } catch (err) {
    if (err instanceof XrpcCallError && err.error === 'RepoNotFound') return []
    throw err
  }
  const pinned = await pinnedPost(rt, groupDid)
  return records
    .map(({ uri, cid, value }) => {
      const v = value as { text?: unknown; createdAt?: unknown; embed?: { external?: { uri?: unknown; title?: unknown }; images?: unknown } }
      const external = v.embed?.external
      return {
        uri,
        cid,
        pinned: pinned === uri,
        text: typeof v.text === 'string' ? v.text : '',
        createdAt: typeof v.createdAt === 'string' ? v.createdAt : '',
        pictures: Array.isArray(v.embed?.images) ? v.embed.images.length : 0,
        link: typeof external?.uri === 'string' ? { uri: external.uri, title: typeof external.title === 'string' ? external.title : external.uri } : null,
      }
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

/** The address of the post pinned to the group's profile, if any. */
async function pinnedPost(rt: ActionDeps, groupDid: string): Promise<string | null> {
  const profile = await groupProfile(rt, groupDid)
  const pinned = profile?.pinnedPost as { uri?: unknown } | undefined
  return typeof pinned?.uri === 'string' ? pinned.uri : null
}

/** The group's `app.bsky.actor.profile` record as the host holds it now (null: none yet). */
export async function groupProfile(rt: ActionDeps, groupDid: string): Promise<Record<string, unknown> | null> {
  const host = await rt.hostOf(groupDid)
  try {
    const { value } = await host.publicQuery('com.atproto.repo.getRecord', { repo: groupDid, collection: PROFILE_COLLECTION, rkey: 'self' })
    return value as Record<string, unknown>
  } catch (err) {
    if (err instanceof XrpcCallError && (err.error === 'RecordNotFound' || err.error === 'RepoNotFound')) return null
    throw err
  }
}
