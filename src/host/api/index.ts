import type { Server } from '../../node/lexicon/index.js'
import type { HostContext } from '../context.js'
import type { RegisterMethod } from './registrar.js'
import { actingOf, runActing } from '../audit/acting.js'
import requestJoin from './example/groups/requestJoin.js'
import getGroup from './example/groups/getGroup.js'
import listMembers from './example/groups/listMembers.js'
import grantRole from './example/groups/grantRole.js'
import revokeRole from './example/groups/revokeRole.js'
import ejectMember from './example/groups/ejectMember.js'
import configureGroup from './example/groups/configureGroup.js'
import createGroup from './example/groups/createGroup.js'
import createReport from './example/groups/createReport.js'
import listSubjects from './example/groups/listSubjects.js'
import updateSubject from './example/groups/updateSubject.js'
import listChanges from './example/groups/listChanges.js'
import notifyWrite from './example/groups/notifyWrite.js'
import getJoinRequest from './example/groups/getJoinRequest.js'
import cancelJoinRequest from './example/groups/cancelJoinRequest.js'
import listJoinRequests from './example/groups/listJoinRequests.js'
import admitMember from './example/groups/admitMember.js'
import createInvite from './example/groups/createInvite.js'
import listInvites from './example/groups/listInvites.js'
import revokeInvite from './example/groups/revokeInvite.js'
import listMyInvites from './example/groups/listMyInvites.js'
import declineInvite from './example/groups/declineInvite.js'
import leaveGroup from './example/groups/leaveGroup.js'
import setEventCapacity from './example/groups/setEventCapacity.js'
import setRsvpStanding from './example/groups/setRsvpStanding.js'
import getEventStanding from './example/groups/getEventStanding.js'
import createSpace from './example/groups/createSpace.js'
import updateSpace from './example/groups/updateSpace.js'
import deleteSpace from './example/groups/deleteSpace.js'
import getGroupAuth from './example/groups/getGroupAuth.js'
import createRecord from './com/atproto/space/createRecord.js'
import putRecord from './com/atproto/space/putRecord.js'
import deleteRecord from './com/atproto/space/deleteRecord.js'
import getRecord from './com/atproto/space/getRecord.js'
import listRecords from './com/atproto/space/listRecords.js'
import resolveHandle from './com/atproto/identity/resolveHandle.js'
import unbanMember from './example/groups/unbanMember.js'
import listBans from './example/groups/listBans.js'
import listMyGroups from './example/groups/listMyGroups.js'
import listMemberRecords from './example/groups/listMemberRecords.js'
import getSubject from './example/groups/getSubject.js'
import emitModerationEvent from './example/groups/emitModerationEvent.js'
import subscribeChanges from './example/groups/subscribeChanges.js'
import listAuditLog from './example/groups/listAuditLog.js'
import putRole from './example/groups/putRole.js'
import deleteRole from './example/groups/deleteRole.js'
import getMemberHistory from './example/groups/getMemberHistory.js'
import repoCreateRecord from './com/atproto/repo/createRecord.js'
import repoPutRecord from './com/atproto/repo/putRecord.js'
import repoDeleteRecord from './com/atproto/repo/deleteRecord.js'
import repoApplyWrites from './com/atproto/repo/applyWrites.js'
import repoDescribeRepo from './com/atproto/repo/describeRepo.js'
import repoGetRecord from './com/atproto/repo/getRecord.js'
import repoListRecords from './com/atproto/repo/listRecords.js'
import syncGetRepo from './com/atproto/sync/getRepo.js'
import syncGetRecord from './com/atproto/sync/getRecord.js'
import syncGetLatestCommit from './com/atproto/sync/getLatestCommit.js'
import syncListRepos from './com/atproto/sync/listRepos.js'
import syncSubscribeRepos from './com/atproto/sync/subscribeRepos.js'
import repoUploadBlob from './com/atproto/repo/uploadBlob.js'
import syncGetBlob from './com/atproto/sync/getBlob.js'
import uploadSpaceBlob from './example/groups/uploadSpaceBlob.js'
import getSpaceBlob from './example/groups/getSpaceBlob.js'

/** Every XRPC method this host serves; one file per method, folders mirror the NSID. */
const METHODS: RegisterMethod[] = [requestJoin, getGroup, listMembers, grantRole, revokeRole, ejectMember, configureGroup, createGroup, createReport, listSubjects, updateSubject, listChanges, notifyWrite, getJoinRequest, cancelJoinRequest, listJoinRequests, admitMember, createInvite, listInvites, revokeInvite, leaveGroup, createSpace, updateSpace, deleteSpace, getGroupAuth, createRecord, putRecord, deleteRecord, getRecord, listRecords, resolveHandle, unbanMember, listBans, listMyGroups, listMemberRecords, getSubject, emitModerationEvent, subscribeChanges, listAuditLog, putRole, deleteRole, getMemberHistory, listMyInvites, declineInvite, repoCreateRecord, repoPutRecord, repoDeleteRecord, repoApplyWrites, repoDescribeRepo, repoGetRecord, repoListRecords, syncGetRepo, syncGetRecord, syncGetLatestCommit, syncListRepos, syncSubscribeRepos, repoUploadBlob, syncGetBlob, uploadSpaceBlob, getSpaceBlob, setEventCapacity, setRsvpStanding, getEventStanding]

export function registerMethods(server: Server, ctx: HostContext): void {
  knowWhoIsActing(server)
  for (const register of METHODS) register(server, ctx)
}

/**
 * Every method's handler runs knowing its verified caller (audit/acting.ts), so each
 * change it records says who made it, without each handler passing the caller down to
 * every service that records one.
 */
function knowWhoIsActing(server: Server): void {
  const add = server.xrpc.method.bind(server.xrpc)
  server.xrpc.method = ((nsid: string, cfg: Parameters<typeof add>[1]) => {
    if (typeof cfg === 'function') return add(nsid, (reqCtx) => runActing(actingOf(reqCtx.auth?.credentials), () => cfg(reqCtx)))
    const handler = cfg.handler
    return add(nsid, { ...cfg, handler: (reqCtx) => runActing(actingOf(reqCtx.auth?.credentials), () => handler(reqCtx)) })
  }) as typeof server.xrpc.method
}
