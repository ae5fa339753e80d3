/** The collection a group's public posts are in: Bluesky's, so every atproto reader shows them. */
export const POST_COLLECTION = 'app.bsky.feed.post'

/** The group's public profile (rkey `self`), where a pinned post is named. */
export const PROFILE_COLLECTION = 'app.bsky.actor.profile'

export interface PostFields {
  text: string
  /** A link card (app.bsky.embed.external): an event's own page, tickets or stream. */
  link?: { uri: string; title: string; description?: string }
}

/** The `app.bsky.feed.post` record for a post: its text, when, and the link card if any. */
export function postRecord(p: PostFields, createdAt: string): Record<string, unknown> {
  return {
    $type: POST_COLLECTION,
    text: p.text,
    createdAt,
    ...(p.link ? { embed: { $type: 'app.bsky.embed.external', external: { uri: p.link.uri, title: p.link.title, description: p.link.description ?? '' } } } : {}),
  }
}
