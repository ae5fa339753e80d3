import { TID } from '@atproto/common-web'
import type { ActionTable, ActionDeps } from '../actions/action-spec.js'
import { ensureCalendarSpace } from '../calendar/calendar-space.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { POST_COLLECTION, PROFILE_COLLECTION, postRecord } from './post-record.js'
import { groupProfile } from './public-posts.js'

/** A post's address in the group's public repository, as the change log names it. */
export const postAddress = (groupDid: string, rkey: string) => `at://${groupDid}/${POST_COLLECTION}/${rkey}`

/** Whether the group's public repository already holds the post (sent before a crash cut the attempt short). */
async function postOnHost(rt: ActionDeps, groupDid: string, rkey: string): Promise<boolean> {
  const host = await rt.hostOf(groupDid)
  return host
    .publicQuery('com.atproto.repo.getRecord', { repo: groupDid, collection: POST_COLLECTION, rkey })
    .then(() => true)
    .catch((err: unknown) => {
      if (err instanceof XrpcCallError && (err.error === 'RecordNotFound' || err.error === 'RepoNotFound')) return false
      throw err
    })
}

/**
 * Saying something in public as the group (issue 28): a post in the group's own repository
 * on its host, written with a group credential whose grant names `app.bsky.feed.post`
 * (roles with `repo.write`). The credential is got for the calendar space, which every
 * announced event lives in. The record key is chosen when the post is queued, so a
 * replay cannot post twice.
 */
export const POST_ACTIONS: ActionTable<'post.create' | 'post.pin'> = {
  'post.create': {
    undo: 'none',
    // The record key, chosen once: a replay re-sends the same post, never a second one.
    chooseWhenQueued: () => ({ rkey: TID.nextStr() }),
    label: (p) => `Post as the group: “${p.text.length > 60 ? `${p.text.slice(0, 59)}…` : p.text}”`,
    applyToCache: async () => {},
    send: async (rt, g, p) => {
      const host = await rt.hostOf(g)
      const space = await ensureCalendarSpace(host, g, rt.knownSpaces)
      // A picture goes up first; an upload the post never names is the host's to forget.
      const image = p.image ? { blob: (await rt.credentials.uploadBlob(host.host, g, space, Buffer.from(p.image.data, 'base64'), p.image.mimeType)).blob, alt: p.image.alt } : undefined
      return rt.credentials.writeRepo(host.host, g, space, 'com.atproto.repo.createRecord', {
        repo: g,
        collection: POST_COLLECTION,
        rkey: p.rkey,
        record: postRecord(p, new Date().toISOString(), image),
      })
    },
    conflicts: { Forbidden: 'Your role may not post as the group.', InvalidRecord: 'The host would not take that post.' },
    alreadyApplied: (rt, g, p) => postOnHost(rt, g, p.rkey),
    changes: ['record.created'],
    list: null,
    confirmed: 'keep',
    identifiers: (p, { groupDid }) => [postAddress(groupDid, p.rkey)],
  },
  'post.pin': {
    undo: 'none',
    label: () => 'Pin a post to the group’s profile',
    applyToCache: async () => {},
    // The profile is read first and written back whole with the pin changed: the group's
    // name, picture and other apps' fields stay as they are.
    send: async (rt, g, p) => {
      const host = await rt.hostOf(g)
      const space = await ensureCalendarSpace(host, g, rt.knownSpaces)
      const profile = (await groupProfile(rt, g)) ?? {}
      const { pinnedPost: _was, ...rest } = profile
      const record = { ...rest, $type: PROFILE_COLLECTION, ...(p.post ? { pinnedPost: p.post } : {}) }
      return rt.credentials.writeRepo(host.host, g, space, 'com.atproto.repo.putRecord', { repo: g, collection: PROFILE_COLLECTION, rkey: 'self', record })
    },
    conflicts: { Forbidden: 'Your role may not change the group’s public profile.' },
    changes: ['record.created', 'record.updated'],
    list: null,
    confirmed: 'keep',
    identifiers: (_p, { groupDid }) => [`at://${groupDid}/${PROFILE_COLLECTION}/self`],
  },
}
