/**
 * GENERATED CODE - DO NOT MODIFY
 */
import { type ValidationResult, BlobRef } from '@atproto/lexicon'
import { CID } from 'multiformats/cid'
import { validate as _validate } from '../../../lexicons.js'
import {
  type $Typed,
  is$typed as _is$typed,
  type OmitKey,
} from '../../../util.js'

const is$typed = _is$typed,
  validate = _validate
const id = 'example.groups.defs'

/** A join request waiting for a decision. */
export interface JoinRequest {
  $type?: 'example.groups.defs#joinRequest'
  /** Identifier of the join request. */
  id: string
  /** DID of the person asking to join. */
  did: string
  /** When the request was made. */
  createdAt: string
  /** Optional message from the requester. */
  message?: string
  /** Address of the invite redeemed by this request, if any (an at:// address or pending:<did>). */
  invite?: string
}

const hashJoinRequest = 'joinRequest'

export function isJoinRequest<V>(v: V) {
  return is$typed(v, id, hashJoinRequest)
}

export function validateJoinRequest<V>(v: V) {
  return validate<JoinRequest & V>(v, id, hashJoinRequest)
}

/** An outstanding invite. */
export interface Invite {
  $type?: 'example.groups.defs#invite'
  /** Address of the invite: an at:// address, or pending:<did> when the invitee has no invites space yet. */
  uri: string
  /** DID of the invited person. */
  invitee: string
  /** When the invite was made. */
  createdAt: string
  /** When the invite stops being redeemable, if it expires. */
  expiresAt?: string
  /** Optional message to the invitee. */
  message?: string
}

const hashInvite = 'invite'

export function isInvite<V>(v: V) {
  return is$typed(v, id, hashInvite)
}

export function validateInvite<V>(v: V) {
  return validate<Invite & V>(v, id, hashInvite)
}

/** A moderation subject that is an account. */
export interface SubjectAccount {
  $type?: 'example.groups.defs#subjectAccount'
  /** DID of the account. */
  did: string
}

const hashSubjectAccount = 'subjectAccount'

export function isSubjectAccount<V>(v: V) {
  return is$typed(v, id, hashSubjectAccount)
}

export function validateSubjectAccount<V>(v: V) {
  return validate<SubjectAccount & V>(v, id, hashSubjectAccount)
}

/** A moderation subject that is a record. */
export interface SubjectRecord {
  $type?: 'example.groups.defs#subjectRecord'
  /** at:// address of the record. */
  uri: string
  /** CID of the record version, if pinned. */
  cid?: string
}

const hashSubjectRecord = 'subjectRecord'

export function isSubjectRecord<V>(v: V) {
  return is$typed(v, id, hashSubjectRecord)
}

export function validateSubjectRecord<V>(v: V) {
  return validate<SubjectRecord & V>(v, id, hashSubjectRecord)
}

/** A moderation subject with its status. */
export interface Subject {
  $type?: 'example.groups.defs#subject'
  subject: $Typed<SubjectAccount> | $Typed<SubjectRecord> | { $type: string }
  /** Moderation status of the subject. */
  status: 'open' | 'escalated' | 'resolved' | (string & {})
  /** When the subject was first reported. */
  createdAt: string
  /** When the subject last changed. */
  updatedAt: string
  /** How many people reported the subject: one person's repeated reports count once (getSubject lists every report). */
  reportCount: number
  /** Whether a takedown is in force: a record is not served to members, an account is banned. */
  takenDown?: boolean
  lastReport?: ReportView
  /** The distinct reason types reported. */
  reasonTypes?: string[]
  assignedTo?: Assignment
}

const hashSubject = 'subject'

export function isSubject<V>(v: V) {
  return is$typed(v, id, hashSubject)
}

export function validateSubject<V>(v: V) {
  return validate<Subject & V>(v, id, hashSubject)
}

/** A moderator's hold on a subject (Ozone's moderator assignment): the others see who has it. Released when they resolve it, by hand (emitModerationEvent unassign), or at endAt. */
export interface Assignment {
  $type?: 'example.groups.defs#assignment'
  /** The moderator who has it. */
  did: string
  /** When they took it. */
  startAt: string
  /** When it lapses unless taken again. */
  endAt: string
}

const hashAssignment = 'assignment'

export function isAssignment<V>(v: V) {
  return is$typed(v, id, hashAssignment)
}

export function validateAssignment<V>(v: V) {
  return validate<Assignment & V>(v, id, hashAssignment)
}

/** A role of the group. */
export interface Role {
  $type?: 'example.groups.defs#role'
  /** Role name, e.g. owner, admin, moderator, member. */
  name: string
  /** Actions the role confers. Unknown actions confer nothing. */
  actions: (
    | 'mod.read'
    | 'mod.resolve'
    | 'invite'
    | 'admit'
    | 'eject'
    | 'role.assign'
    | 'space.create'
    | 'space.configure'
    | 'space.delete'
    | 'group.configure'
    | (string & {})
  )[]
  /** Roles a holder of this role may grant, revoke or eject. */
  assignable: string[]
}

const hashRole = 'role'

export function isRole<V>(v: V) {
  return is$typed(v, id, hashRole)
}

export function validateRole<V>(v: V) {
  return validate<Role & V>(v, id, hashRole)
}

/** A member of the group. */
export interface Member {
  $type?: 'example.groups.defs#member'
  /** DID of the member. */
  did: string
  /** Handle of the member, if known. */
  handle?: string
  /** Roles the member holds. */
  roles: string[]
  /** When the member was admitted. */
  joinedAt: string
  /** Whether the member's acceptance record has been seen. */
  accepted: boolean
}

const hashMember = 'member'

export function isMember<V>(v: V) {
  return is$typed(v, id, hashMember)
}

export function validateMember<V>(v: V) {
  return validate<Member & V>(v, id, hashMember)
}

/** Per-role write scope of a space. */
export interface CredentialScope {
  $type?: 'example.groups.defs#credentialScope'
  /** Role name, e.g. owner, admin, moderator, member. */
  role: string
  /** Collection names a group credential for this role may write; the single value * means every collection in the space. */
  scopes: string[]
}

const hashCredentialScope = 'credentialScope'

export function isCredentialScope<V>(v: V) {
  return is$typed(v, id, hashCredentialScope)
}

export function validateCredentialScope<V>(v: V) {
  return validate<CredentialScope & V>(v, id, hashCredentialScope)
}

/** The caller's standing in the group. */
export interface ViewerState {
  $type?: 'example.groups.defs#viewerState'
  /** The caller's roles in the group. */
  roles: string[]
  /** The caller's effective actions (union over their roles). */
  actions: (
    | 'mod.read'
    | 'mod.resolve'
    | 'invite'
    | 'admit'
    | 'eject'
    | 'role.assign'
    | 'space.create'
    | 'space.configure'
    | 'space.delete'
    | 'group.configure'
    | (string & {})
  )[]
}

const hashViewerState = 'viewerState'

export function isViewerState<V>(v: V) {
  return is$typed(v, id, hashViewerState)
}

export function validateViewerState<V>(v: V) {
  return validate<ViewerState & V>(v, id, hashViewerState)
}

/** A group profile with its roles. */
export interface GroupView {
  $type?: 'example.groups.defs#groupView'
  /** DID of the group. */
  did: string
  /** Handle of the group. */
  handle?: string
  /** Display name of the group. */
  displayName?: string
  /** Free-text description of the group. */
  description?: string
  /** How people join: open admits at once, approval creates a pending request, invite requires an invite. */
  joinPolicy: 'open' | 'approval' | 'invite' | (string & {})
  /** Roles defined in the group. */
  roles: Role[]
  viewer?: ViewerState
}

const hashGroupView = 'groupView'

export function isGroupView<V>(v: V) {
  return is$typed(v, id, hashGroupView)
}

export function validateGroupView<V>(v: V) {
  return validate<GroupView & V>(v, id, hashGroupView)
}

/** An entry of the per-group change log. */
export interface Change {
  $type?: 'example.groups.defs#change'
  /** Position in the group change log; increases with every change. */
  seq: number
  /** What changed. Open: a client meeting a kind it does not know reads the group again rather than miss it. */
  kind:
    | 'group.created'
    | 'group.configured'
    | 'joinRequest.created'
    | 'joinRequest.cancelled'
    | 'joinRequest.admitted'
    | 'joinRequest.denied'
    | 'member.joined'
    | 'member.left'
    | 'member.ejected'
    | 'member.accepted'
    | 'member.acceptanceWithdrawn'
    | 'member.roleGranted'
    | 'member.roleRevoked'
    | 'ban.created'
    | 'ban.lifted'
    | 'invite.created'
    | 'invite.revoked'
    | 'invite.redeemed'
    | 'space.created'
    | 'space.updated'
    | 'space.deleted'
    | 'record.created'
    | 'record.updated'
    | 'record.deleted'
    | 'record.takenDown'
    | 'record.restored'
    | 'subject.reported'
    | 'subject.updated'
    | (string & {})
  /** What the change is about (a DID, an at:// address or an identifier), if any. */
  subject?: string
  /** When the change happened. */
  createdAt: string
}

const hashChange = 'change'

export function isChange<V>(v: V) {
  return is$typed(v, id, hashChange)
}

export function validateChange<V>(v: V) {
  return validate<Change & V>(v, id, hashChange)
}

/** A space of the group with its access record. */
export interface SpaceView {
  $type?: 'example.groups.defs#spaceView'
  /** Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments. */
  uri: string
  /** Space type. */
  type: string
  /** Space key; self for single-instance spaces. */
  skey: string
  /** Human-readable name of the space. */
  name: string
  /** Roles that may read the space. */
  readableBy: string[]
  /** Per role, the collections a group credential may write in the space. */
  credentialScopes: CredentialScope[]
}

const hashSpaceView = 'spaceView'

export function isSpaceView<V>(v: V) {
  return is$typed(v, id, hashSpaceView)
}

export function validateSpaceView<V>(v: V) {
  return validate<SpaceView & V>(v, id, hashSpaceView)
}

/** One report of a subject. reportedBy is shown to moderators, never to the reported person. */
export interface ReportView {
  $type?: 'example.groups.defs#reportView'
  id: number
  reasonType:
    | 'com.atproto.moderation.defs#reasonSpam'
    | 'com.atproto.moderation.defs#reasonViolation'
    | 'com.atproto.moderation.defs#reasonMisleading'
    | 'com.atproto.moderation.defs#reasonSexual'
    | 'com.atproto.moderation.defs#reasonRude'
    | 'com.atproto.moderation.defs#reasonOther'
    | 'com.atproto.moderation.defs#reasonAppeal'
    | (string & {})
  reason?: string
  /** Who reported; omitted when the caller is the reported person. */
  reportedBy?: string
  createdAt: string
}

const hashReportView = 'reportView'

export function isReportView<V>(v: V) {
  return is$typed(v, id, hashReportView)
}

export function validateReportView<V>(v: V) {
  return validate<ReportView & V>(v, id, hashReportView)
}

/** One entry of a subject's moderation history: who did what, when. */
export interface ModerationEventView {
  $type?: 'example.groups.defs#moderationEventView'
  id: number
  /** What happened. */
  event:
    | 'report'
    | 'status'
    | 'eject'
    | 'comment'
    | 'acknowledge'
    | 'escalate'
    | 'resolve'
    | 'takedown'
    | 'reverseTakedown'
    | 'assign'
    | 'unassign'
    | (string & {})
  note?: string
  /** For status: the new status. */
  status?: 'open' | 'escalated' | 'resolved' | (string & {})
  /** For report: its reason type. */
  reasonType?: string
  /** For report: its text. */
  reason?: string
  /** For eject and takedown of an account: whether a ban was set. */
  ban?: boolean
  /** Who did it; for a report, omitted when the caller is the reported person. */
  createdBy?: string
  createdAt: string
  /** For assign: who took the subject; for unassign: whose hold was released. */
  assignedTo?: string
  /** For assign: when the hold lapses. */
  endAt?: string
}

const hashModerationEventView = 'moderationEventView'

export function isModerationEventView<V>(v: V) {
  return is$typed(v, id, hashModerationEventView)
}

export function validateModerationEventView<V>(v: V) {
  return validate<ModerationEventView & V>(v, id, hashModerationEventView)
}
