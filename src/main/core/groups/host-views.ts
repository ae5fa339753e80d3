/** Shapes the group host answers with (lexicons/example/groups/defs.json). */
export interface HostRole {
  name: string
  actions: string[]
  assignable: string[]
}
export interface HostGroupView {
  did: string
  handle?: string
  displayName?: string
  description?: string
  joinPolicy: string
  roles: HostRole[]
  viewer?: { roles: string[]; actions: string[] }
}
export interface HostJoinRequest {
  id: string
  did: string
  createdAt: string
  message?: string
  invite?: string
}
export interface HostMember {
  did: string
  handle?: string
  roles: string[]
  joinedAt: string
  accepted: boolean
}
export interface HostInvite {
  uri: string
  invitee: string
  createdAt: string
  expiresAt?: string
  message?: string
}
export interface HostSubject {
  subject: { did: string } | { uri: string; cid?: string }
  status: string
  createdAt: string
  updatedAt: string
  reportCount: number
  /** Since issue 17's host: the newest report, the reason types, a takedown in force. */
  lastReport?: { reasonType: string; reason?: string; createdAt: string }
  reasonTypes?: string[]
  takenDown?: boolean
}
