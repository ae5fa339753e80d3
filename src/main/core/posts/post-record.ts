/** The collection a group's public posts are in: Bluesky's, so every atproto reader shows them. */
export const POST_COLLECTION = 'app.bsky.feed.post'

/** The group's public profile (rkey `self`), where a pinned post is named. */
export const PROFILE_COLLECTION = 'app.bsky.actor.profile'

/** The image types a post may carry (the host sniffs the bytes too). */
export const POST_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
/** The host's limit for one image. */
export const MAX_POST_IMAGE_BYTES = 1_000_000

export interface PostFields {
  text: string
  /** A link card (app.bsky.embed.external): an event's own page, tickets or stream. */
  link?: { uri: string; title: string; description?: string }
}

/**
 * The `app.bsky.feed.post` record for a post: its text, when, and a picture (its uploaded
 * blob) or else the link card, if any (Bluesky's post embeds one or the other).
 */
export function postRecord(p: PostFields, createdAt: string, image?: { blob: unknown; alt: string }): Record<string, unknown> {
  const embed = image
    ? { $type: 'app.bsky.embed.images', images: [{ alt: image.alt, image: image.blob }] }
    : p.link
      ? { $type: 'app.bsky.embed.external', external: { uri: p.link.uri, title: p.link.title, description: p.link.description ?? '' } }
      : undefined
  return { $type: POST_COLLECTION, text: p.text, createdAt, ...(embed ? { embed } : {}) }
}
