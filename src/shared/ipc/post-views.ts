import { z } from 'zod'

/** One of the group's public posts (its repository's app.bsky.feed.post), as the window lists them. */
export const PublicPostView = z.object({
  uri: z.string(),
  /** Its content hash, for a strongRef (pinning it). */
  cid: z.string(),
  /** It is the post pinned to the group's profile. */
  pinned: z.boolean(),
  text: z.string(),
  createdAt: z.string(),
  /** The link card's address and title, if it has one. */
  link: z.object({ uri: z.string(), title: z.string() }).nullable(),
  /** How many pictures it shows. */
  pictures: z.number().int(),
})
export type PublicPost = z.output<typeof PublicPostView>
