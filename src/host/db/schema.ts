import type { Generated } from 'kysely'

/** Kysely table types for the group host's SQLite database. JSON columns hold arrays. */
export type JoinPolicy = 'open' | 'approval' | 'invite'

export interface HostSecretTable {
  name: string
  /** Sealed with the host key (src/host/secrets), except the public `serviceDid`. */
  value: string
}

export interface GroupTable {
  did: string
  handle: string
  displayName: string | null
  description: string | null
  joinPolicy: JoinPolicy
  /**
   * The secp256k1 key that may rotate the group's PLC DID (and signs for it), sealed
   * with the host key (src/host/secrets; migration 008); only the host has it.
   */
  rotationKeySealed: string
  createdAt: string
  /**
   * The account whose createGroup made it, counted against `--max-groups-per-account`
   * (migration 018); null for seeded groups and for older ones whose creator has left.
   */
  createdBy: string | null
}

export interface RoleTable {
  groupDid: string
  name: string
  /** JSON array of action names. */
  actions: string
  /** JSON array of role names this role may grant, revoke or eject. */
  assignable: string
}

export interface MemberTable {
  groupDid: string
  did: string
  joinedAt: string
  /** When the member's acceptance record was last seen on their PDS (null: not yet). */
  acceptedAt: string | null
}

export interface MemberRoleTable {
  groupDid: string
  did: string
  role: string
}

export type JoinRequestStatus = 'pending' | 'admitted' | 'denied' | 'cancelled'

/**
 * A request to join. Decided and withdrawn ones are deleted a day after their decision,
 * and one person makes at most 10 a day per group (membership/new-join-request.ts; indexes: migration 015).
 */
export interface JoinRequestTable {
  id: string
  groupDid: string
  did: string
  message: string | null
  /** URI of the invite the request redeemed, if any. */
  invite: string | null
  status: JoinRequestStatus
  createdAt: string
  decidedAt: string | null
  decidedBy: string | null
}

export type InviteStatus = 'outstanding' | 'redeemed' | 'revoked' | 'declined'

export interface InviteTable {
  /** Row key (migration 002): the address below is not unique. */
  id: Generated<number>
  /** `at://…` or `pending:<did>` (spec section 3). */
  uri: string
  groupDid: string
  invitee: string
  message: string | null
  createdBy: string
  createdAt: string
  expiresAt: string | null
  status: InviteStatus
}

export interface SpaceTable {
  /** `at://<group_did>/space/<type>/<skey>` */
  uri: string
  groupDid: string
  type: string
  skey: string
  name: string
  readableBy: string
  credentialScopes: string
  createdAt: string
  updatedAt: string
  /** The group's records in the space, and their JSON's size in bytes (spaces/records.ts; migration 031). */
  recordCount: Generated<number>
  recordBytes: Generated<number>
}

export interface RecordTable {
  /** `<space uri>/<collection>/<rkey>` for space records. */
  uri: string
  space: string
  repo: string
  collection: string
  rkey: string
  cid: string
  /** JSON of the record value. */
  value: string
  createdAt: string
  updatedAt: string
}

/** A member's record in one of the group's spaces, as last read from their own PDS. */
export interface MemberRecordTable {
  groupDid: string
  space: string
  /** The member who wrote it. */
  repo: string
  collection: string
  rkey: string
  /** The CID the member's PDS gave it, checked against the value. */
  cid: string
  /** JSON of the record value. */
  value: string
  /** When the host read this version from the member's PDS. */
  indexedAt: string
}

export type SubjectStatus = 'open' | 'escalated' | 'resolved'

export interface SubjectTable {
  groupDid: string
  /** A DID for an account, an at:// URI for a record. */
  subjectKey: string
  /** JSON of `{did}` or `{uri, cid?}`. */
  subject: string
  status: SubjectStatus
  /** Distinct reporters: one person's repeated reports count once. */
  reportCount: number
  createdAt: string
  updatedAt: string
  /** When the newest report came (migration 010); null only before any report was copied. */
  lastReportedAt: string | null
  /** The moderator who took the subject, when, and until when (migration 017); all null when nobody has. */
  assignedTo: string | null
  assignedAt: string | null
  assignedUntil: string | null
  /** Who pinned it to the top of the team's queue, and when (migration 037); both null when not pinned. */
  pinnedBy: string | null
  pinnedAt: string | null
}

/** One report (migration 010): kept whole; the reporter only moderators see. How many one person adds is bounded: moderation/report-bounds.ts. */
export interface ReportTable {
  id: number
  groupDid: string
  subjectKey: string
  reasonType: string
  reason: string | null
  reportedBy: string
  createdAt: string
}

/** A takedown in force (migration 010): a record's space address, or an account's DID. */
export interface TakedownTable {
  groupDid: string
  subjectKey: string
  createdBy: string
  createdAt: string
}

export interface ModerationEventTable {
  id: number
  groupDid: string
  subjectKey: string
  /** 'report' | 'status' | 'eject' | 'comment' | 'acknowledge' | 'escalate' | 'resolve' | 'takedown' | 'reverseTakedown' */
  kind: string
  /** JSON: report {reasonType, reason?}, status {status, note?}, eject {note?, ban?}, the others {note?, ban?}. */
  data: string
  createdBy: string
  createdAt: string
}

export interface ChangeTable {
  seq: number
  groupDid: string
  kind: string
  subject: string | null
  createdAt: string
  /** Who made it (migration 019; audit/acting.ts): null before then, or when no caller did. */
  actor: string | null
  /** 'group' when they acted for the group (a group credential or session). */
  via: string | null
}

export interface DpopJtiTable {
  jti: string
  expiresAt: number
}

/** Service-auth tokens `getGroupAuth` accepted (each once): `<issuer DID> <jti>`, until `exp`. */
export interface ServiceJtiTable {
  jti: string
  expiresAt: number
}

/** A person kept out of a group (migration 007): `ejectMember` with `ban`. */
export interface BanTable {
  groupDid: string
  did: string
  note: string | null
  createdBy: string
  createdAt: string
}

/** A pushed authorization request on its way through the group sign-in (migration 009). */
export interface OAuthRequestTable {
  id: string
  clientId: string
  /** The client's validated metadata document (JSON). */
  clientMetadata: string
  /** The pushed authorization request's parameters (JSON). */
  params: string
  /** Thumbprint of the DPoP key that pushed it: the code is exchanged by that key only. */
  jkt: string
  groupDid: string
  /** SHA-256 of the browser's device cookie, set by the first page view. */
  deviceHash: string | null
  /** The token the pages' forms carry (double-checked against the device cookie). */
  csrf: string
  personDid: string | null
  personHandle: string | null
  /** JSON array of the person's roles when they consented. */
  roles: string | null
  /** The scope granted (narrowed to the roles). */
  scope: string | null
  codeHash: string | null
  expiresAt: number
}

/** A group session granted to an app (migration 009). */
export interface OAuthSessionTable {
  id: string
  groupDid: string
  personDid: string
  clientId: string
  scope: string
  roles: string
  jkt: string
  codeHash: string
  refreshHash: string
  createdAt: number
  expiresAt: number
  revokedAt: number | null
}

/** The host's own OAuth client state and sessions at people's PDSes (migration 009). */
export interface OAuthUpstreamTable {
  key: string
  value: string
  expiresAt: number
}

/**
 * Rate-limit counts shared by several host processes (012; used on PostgreSQL, where
 * src/host/limits/db-counter.ts keeps them). One row per limited key: its current
 * window's count and when that window ends (ms since the epoch).
 */
export interface RateCounterTable {
  key: string
  resetAt: number
  count: number
}

/** A group's avatar (migration 021; groups/avatar.ts). */
export interface GroupAvatarTable {
  groupDid: string
  /** image/png, image/jpeg or image/webp, as sniffed from the bytes. */
  mime: string
  /** The image's bytes, base64. */
  data: string
  updatedAt: string
}

export interface HostDatabaseSchema {
  host_secret: HostSecretTable
  group: GroupTable
  role: RoleTable
  member: MemberTable
  member_role: MemberRoleTable
  join_request: JoinRequestTable
  invite: InviteTable
  space: SpaceTable
  record: RecordTable
  member_record: MemberRecordTable
  subject: SubjectTable
  moderation_event: ModerationEventTable
  change: ChangeTable
  dpop_jti: DpopJtiTable
  service_jti: ServiceJtiTable
  ban: BanTable
  oauth_request: OAuthRequestTable
  oauth_session: OAuthSessionTable
  oauth_upstream: OAuthUpstreamTable
  report: ReportTable
  takedown: TakedownTable
  blob_takedown: BlobTakedownTable
  rate_counter: RateCounterTable
  group_avatar: GroupAvatarTable
  repo_root: RepoRootTable
  repo_takedown: RepoTakedownTable
  repo_block: RepoBlockTable
  repo_record: RepoRecordTable
  repo_event: RepoEventTable
  repo_blob: RepoBlobTable
  repo_record_blob: RepoRecordBlobTable
  space_blob: SpaceBlobTable
  record_blob: RecordBlobTable
  event_capacity: EventCapacityTable
  rsvp_standing: RsvpStandingTable
}

/** A group's public repo an operator took down (repo/takedown.ts; migration 034). */
export interface RepoTakedownTable {
  groupDid: string
  /** The operator's note, never shown to callers. */
  reason: string | null
  createdAt: string
}

/** The group's public repo's current commit (src/host/repo; migration 025). */
export interface RepoRootTable {
  groupDid: string
  cid: string
  rev: string
  updatedAt: string
  /** The repo's records and their encoded bytes, and its firehose frames kept and theirs (repo/bounds.ts; migration 036). */
  recordCount: Generated<number>
  recordBytes: Generated<number>
  frameCount: Generated<number>
  frameBytes: Generated<number>
}

/** One block (MST node, record or commit) of a group's public repo, by CID. */
export interface RepoBlockTable {
  groupDid: string
  cid: string
  /** The commit that first wrote it. */
  rev: string
  content: Uint8Array
}

/** A record in a group's public repo, for listing by collection. */
export interface RepoRecordTable {
  groupDid: string
  collection: string
  rkey: string
  cid: string
  rev: string
  /** The record's encoded size (migration 036). */
  size: Generated<number>
}

/** Which record of a group's public repo names which of its images (migration 036), as the PDS's `record_blob`. */
export interface RepoRecordBlobTable {
  groupDid: string
  /** Raw-codec CID of the image, as in repo_blob. */
  cid: string
  collection: string
  rkey: string
}

/** A commit of a group's public repo as subscribeRepos sends it; `seq` is the stream's cursor. */
export interface RepoEventTable {
  seq: Generated<number>
  groupDid: string
  rev: string
  /** The `#commit` message body, DAG-CBOR (everything but `seq`, which the row gives). */
  frame: Uint8Array
  time: string
}

/** An image uploaded for a group's public repo (uploadBlob), served by sync.getBlob. */
export interface RepoBlobTable {
  groupDid: string
  /** Raw-codec CID of the bytes. */
  cid: string
  mimeType: string
  size: number
  content: Uint8Array
  createdAt: string
}

/** An image uploaded for one of a group's spaces (uploadSpaceBlob; migration 027), served to its readers only. */
export interface SpaceBlobTable {
  space: string
  /** Raw-codec CID of the bytes. */
  cid: string
  groupDid: string
  mimeType: string
  size: number
  content: Uint8Array
  createdAt: string
}

/** A record of a space naming one of its images (spaces/records.ts; migration 028). */
export interface RecordBlobTable {
  space: string
  /** Raw-codec CID of the image, as in space_blob. */
  cid: string
  /** The record's address. */
  uri: string
}

/** An image a takedown hid (moderation/actions.ts; migration 029): hidden while any row names it. */
export interface BlobTakedownTable {
  space: string
  cid: string
  /** The taken-down record that hid it. */
  uri: string
}

/** An event's capacity, set by an organizer (spaces/standing.ts; migration 026). */
export interface EventCapacityTable {
  /** The calendar space's address. */
  space: string
  /** The event's rkey (its RSVPs' rkey too). */
  rkey: string
  groupDid: string
  capacity: number
  updatedAt: string
}

/** A member whose RSVP to an event says going, and their place (spaces/standing.ts; migration 026). */
export interface RsvpStandingTable {
  space: string
  rkey: string
  /** The member. */
  repo: string
  groupDid: string
  /** Order in which the host first saw them going (per event, increasing). */
  arrival: number
  standing: 'going' | 'waitlisted'
}
