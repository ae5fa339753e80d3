import { z } from 'zod'

/** An invite waiting for the person (example.groups.listMyInvites), as their side of the window shows it. */
export const MyInviteView = z.object({
  groupDid: z.string(),
  /** The group's handle, only once it resolves back to the group. */
  groupHandle: z.string().nullable(),
  groupName: z.string().nullable(),
  joinPolicy: z.string(),
  /** Who made the invite; their handle only once it checks out both ways. */
  invitedBy: z.object({ did: z.string(), handle: z.string().nullable() }).nullable(),
  message: z.string().nullable(),
  createdAt: z.string(),
})
export type MyInvite = z.output<typeof MyInviteView>

export const MyInvitesView = z.object({ invites: z.array(MyInviteView), unreachableHosts: z.array(z.string()) })

/** What became of one person in a list invited at once (invites.createMany), in the order given. */
export const InviteListResultView = z.object({
  ref: z.string(),
  outcome: z.enum(['invited', 'alreadyMember', 'alreadyInvited', 'duplicate', 'notFound']),
  did: z.string().nullable(),
  handle: z.string().nullable(),
  /** In plain words, e.g. "Already a member." or why they could not be found. */
  detail: z.string(),
})
export type InviteListResult = z.output<typeof InviteListResultView>
