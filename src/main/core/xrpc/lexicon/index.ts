/**
 * GENERATED CODE - DO NOT MODIFY
 */
import {
  XrpcClient,
  type FetchHandler,
  type FetchHandlerOptions,
} from '@atproto/xrpc'
import { schemas } from './lexicons.js'
import { CID } from 'multiformats/cid'
import { type OmitKey, type Un$Typed } from './util.js'
import * as ComAtprotoIdentityResolveHandle from './types/com/atproto/identity/resolveHandle.js'
import * as ComAtprotoSpaceCreateRecord from './types/com/atproto/space/createRecord.js'
import * as ComAtprotoSpaceDeleteRecord from './types/com/atproto/space/deleteRecord.js'
import * as ComAtprotoSpaceGetRecord from './types/com/atproto/space/getRecord.js'
import * as ComAtprotoSpaceListRecords from './types/com/atproto/space/listRecords.js'
import * as ComAtprotoSpacePutRecord from './types/com/atproto/space/putRecord.js'
import * as ExampleGroupsAdmitMember from './types/example/groups/admitMember.js'
import * as ExampleGroupsCancelJoinRequest from './types/example/groups/cancelJoinRequest.js'
import * as ExampleGroupsConfigureGroup from './types/example/groups/configureGroup.js'
import * as ExampleGroupsCreateGroup from './types/example/groups/createGroup.js'
import * as ExampleGroupsCreateInvite from './types/example/groups/createInvite.js'
import * as ExampleGroupsCreateReport from './types/example/groups/createReport.js'
import * as ExampleGroupsCreateSpace from './types/example/groups/createSpace.js'
import * as ExampleGroupsDefs from './types/example/groups/defs.js'
import * as ExampleGroupsDeleteSpace from './types/example/groups/deleteSpace.js'
import * as ExampleGroupsEjectMember from './types/example/groups/ejectMember.js'
import * as ExampleGroupsEmitModerationEvent from './types/example/groups/emitModerationEvent.js'
import * as ExampleGroupsGetGroup from './types/example/groups/getGroup.js'
import * as ExampleGroupsGetGroupAuth from './types/example/groups/getGroupAuth.js'
import * as ExampleGroupsGetJoinRequest from './types/example/groups/getJoinRequest.js'
import * as ExampleGroupsGetSubject from './types/example/groups/getSubject.js'
import * as ExampleGroupsGrantRole from './types/example/groups/grantRole.js'
import * as ExampleGroupsLeaveGroup from './types/example/groups/leaveGroup.js'
import * as ExampleGroupsListBans from './types/example/groups/listBans.js'
import * as ExampleGroupsListChanges from './types/example/groups/listChanges.js'
import * as ExampleGroupsListInvites from './types/example/groups/listInvites.js'
import * as ExampleGroupsListJoinRequests from './types/example/groups/listJoinRequests.js'
import * as ExampleGroupsListMemberRecords from './types/example/groups/listMemberRecords.js'
import * as ExampleGroupsListMembers from './types/example/groups/listMembers.js'
import * as ExampleGroupsListMyGroups from './types/example/groups/listMyGroups.js'
import * as ExampleGroupsListSubjects from './types/example/groups/listSubjects.js'
import * as ExampleGroupsNotifyWrite from './types/example/groups/notifyWrite.js'
import * as ExampleGroupsRequestJoin from './types/example/groups/requestJoin.js'
import * as ExampleGroupsRevokeInvite from './types/example/groups/revokeInvite.js'
import * as ExampleGroupsRevokeRole from './types/example/groups/revokeRole.js'
import * as ExampleGroupsUnbanMember from './types/example/groups/unbanMember.js'
import * as ExampleGroupsUpdateSpace from './types/example/groups/updateSpace.js'
import * as ExampleGroupsUpdateSubject from './types/example/groups/updateSubject.js'

export * as ComAtprotoIdentityResolveHandle from './types/com/atproto/identity/resolveHandle.js'
export * as ComAtprotoSpaceCreateRecord from './types/com/atproto/space/createRecord.js'
export * as ComAtprotoSpaceDeleteRecord from './types/com/atproto/space/deleteRecord.js'
export * as ComAtprotoSpaceGetRecord from './types/com/atproto/space/getRecord.js'
export * as ComAtprotoSpaceListRecords from './types/com/atproto/space/listRecords.js'
export * as ComAtprotoSpacePutRecord from './types/com/atproto/space/putRecord.js'
export * as ExampleGroupsAdmitMember from './types/example/groups/admitMember.js'
export * as ExampleGroupsCancelJoinRequest from './types/example/groups/cancelJoinRequest.js'
export * as ExampleGroupsConfigureGroup from './types/example/groups/configureGroup.js'
export * as ExampleGroupsCreateGroup from './types/example/groups/createGroup.js'
export * as ExampleGroupsCreateInvite from './types/example/groups/createInvite.js'
export * as ExampleGroupsCreateReport from './types/example/groups/createReport.js'
export * as ExampleGroupsCreateSpace from './types/example/groups/createSpace.js'
export * as ExampleGroupsDefs from './types/example/groups/defs.js'
export * as ExampleGroupsDeleteSpace from './types/example/groups/deleteSpace.js'
export * as ExampleGroupsEjectMember from './types/example/groups/ejectMember.js'
export * as ExampleGroupsEmitModerationEvent from './types/example/groups/emitModerationEvent.js'
export * as ExampleGroupsGetGroup from './types/example/groups/getGroup.js'
export * as ExampleGroupsGetGroupAuth from './types/example/groups/getGroupAuth.js'
export * as ExampleGroupsGetJoinRequest from './types/example/groups/getJoinRequest.js'
export * as ExampleGroupsGetSubject from './types/example/groups/getSubject.js'
export * as ExampleGroupsGrantRole from './types/example/groups/grantRole.js'
export * as ExampleGroupsLeaveGroup from './types/example/groups/leaveGroup.js'
export * as ExampleGroupsListBans from './types/example/groups/listBans.js'
export * as ExampleGroupsListChanges from './types/example/groups/listChanges.js'
export * as ExampleGroupsListInvites from './types/example/groups/listInvites.js'
export * as ExampleGroupsListJoinRequests from './types/example/groups/listJoinRequests.js'
export * as ExampleGroupsListMemberRecords from './types/example/groups/listMemberRecords.js'
export * as ExampleGroupsListMembers from './types/example/groups/listMembers.js'
export * as ExampleGroupsListMyGroups from './types/example/groups/listMyGroups.js'
export * as ExampleGroupsListSubjects from './types/example/groups/listSubjects.js'
export * as ExampleGroupsNotifyWrite from './types/example/groups/notifyWrite.js'
export * as ExampleGroupsRequestJoin from './types/example/groups/requestJoin.js'
export * as ExampleGroupsRevokeInvite from './types/example/groups/revokeInvite.js'
export * as ExampleGroupsRevokeRole from './types/example/groups/revokeRole.js'
export * as ExampleGroupsUnbanMember from './types/example/groups/unbanMember.js'
export * as ExampleGroupsUpdateSpace from './types/example/groups/updateSpace.js'
export * as ExampleGroupsUpdateSubject from './types/example/groups/updateSubject.js'

export class AtpBaseClient extends XrpcClient {
  com: ComNS
  example: ExampleNS

  constructor(options: FetchHandler | FetchHandlerOptions) {
    super(options, schemas)
    this.com = new ComNS(this)
    this.example = new ExampleNS(this)
  }

  /** @deprecated use `this` instead */
  get xrpc(): XrpcClient {
    return this
  }
}

export class ComNS {
  _client: XrpcClient
  atproto: ComAtprotoNS

  constructor(client: XrpcClient) {
    this._client = client
    this.atproto = new ComAtprotoNS(client)
  }
}

export class ComAtprotoNS {
  _client: XrpcClient
  identity: ComAtprotoIdentityNS
  space: ComAtprotoSpaceNS

  constructor(client: XrpcClient) {
    this._client = client
    this.identity = new ComAtprotoIdentityNS(client)
    this.space = new ComAtprotoSpaceNS(client)
  }
}

export class ComAtprotoIdentityNS {
  _client: XrpcClient

  constructor(client: XrpcClient) {
    this._client = client
  }

  resolveHandle(
    params?: ComAtprotoIdentityResolveHandle.QueryParams,
    opts?: ComAtprotoIdentityResolveHandle.CallOptions,
  ): Promise<ComAtprotoIdentityResolveHandle.Response> {
    return this._client
      .call('com.atproto.identity.resolveHandle', params, undefined, opts)
      .catch((e) => {
        throw ComAtprotoIdentityResolveHandle.toKnownErr(e)
      })
  }
}

export class ComAtprotoSpaceNS {
  _client: XrpcClient

  constructor(client: XrpcClient) {
    this._client = client
  }

  createRecord(
    data?: ComAtprotoSpaceCreateRecord.InputSchema,
    opts?: ComAtprotoSpaceCreateRecord.CallOptions,
  ): Promise<ComAtprotoSpaceCreateRecord.Response> {
    return this._client
      .call('com.atproto.space.createRecord', opts?.qp, data, opts)
      .catch((e) => {
        throw ComAtprotoSpaceCreateRecord.toKnownErr(e)
      })
  }

  deleteRecord(
    data?: ComAtprotoSpaceDeleteRecord.InputSchema,
    opts?: ComAtprotoSpaceDeleteRecord.CallOptions,
  ): Promise<ComAtprotoSpaceDeleteRecord.Response> {
    return this._client
      .call('com.atproto.space.deleteRecord', opts?.qp, data, opts)
      .catch((e) => {
        throw ComAtprotoSpaceDeleteRecord.toKnownErr(e)
      })
  }

  getRecord(
    params?: ComAtprotoSpaceGetRecord.QueryParams,
    opts?: ComAtprotoSpaceGetRecord.CallOptions,
  ): Promise<ComAtprotoSpaceGetRecord.Response> {
    return this._client
      .call('com.atproto.space.getRecord', params, undefined, opts)
      .catch((e) => {
        throw ComAtprotoSpaceGetRecord.toKnownErr(e)
      })
  }

  listRecords(
    params?: ComAtprotoSpaceListRecords.QueryParams,
    opts?: ComAtprotoSpaceListRecords.CallOptions,
  ): Promise<ComAtprotoSpaceListRecords.Response> {
    return this._client
      .call('com.atproto.space.listRecords', params, undefined, opts)
      .catch((e) => {
        throw ComAtprotoSpaceListRecords.toKnownErr(e)
      })
  }

  putRecord(
    data?: ComAtprotoSpacePutRecord.InputSchema,
    opts?: ComAtprotoSpacePutRecord.CallOptions,
  ): Promise<ComAtprotoSpacePutRecord.Response> {
    return this._client
      .call('com.atproto.space.putRecord', opts?.qp, data, opts)
      .catch((e) => {
        throw ComAtprotoSpacePutRecord.toKnownErr(e)
      })
  }
}

export class ExampleNS {
  _client: XrpcClient
  groups: ExampleGroupsNS

  constructor(client: XrpcClient) {
    this._client = client
    this.groups = new ExampleGroupsNS(client)
  }
}

export class ExampleGroupsNS {
  _client: XrpcClient

  constructor(client: XrpcClient) {
    this._client = client
  }

  admitMember(
    data?: ExampleGroupsAdmitMember.InputSchema,
    opts?: ExampleGroupsAdmitMember.CallOptions,
  ): Promise<ExampleGroupsAdmitMember.Response> {
    return this._client
      .call('example.groups.admitMember', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsAdmitMember.toKnownErr(e)
      })
  }

  cancelJoinRequest(
    data?: ExampleGroupsCancelJoinRequest.InputSchema,
    opts?: ExampleGroupsCancelJoinRequest.CallOptions,
  ): Promise<ExampleGroupsCancelJoinRequest.Response> {
    return this._client
      .call('example.groups.cancelJoinRequest', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsCancelJoinRequest.toKnownErr(e)
      })
  }

  configureGroup(
    data?: ExampleGroupsConfigureGroup.InputSchema,
    opts?: ExampleGroupsConfigureGroup.CallOptions,
  ): Promise<ExampleGroupsConfigureGroup.Response> {
    return this._client
      .call('example.groups.configureGroup', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsConfigureGroup.toKnownErr(e)
      })
  }

  createGroup(
    data?: ExampleGroupsCreateGroup.InputSchema,
    opts?: ExampleGroupsCreateGroup.CallOptions,
  ): Promise<ExampleGroupsCreateGroup.Response> {
    return this._client
      .call('example.groups.createGroup', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsCreateGroup.toKnownErr(e)
      })
  }

  createInvite(
    data?: ExampleGroupsCreateInvite.InputSchema,
    opts?: ExampleGroupsCreateInvite.CallOptions,
  ): Promise<ExampleGroupsCreateInvite.Response> {
    return this._client
      .call('example.groups.createInvite', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsCreateInvite.toKnownErr(e)
      })
  }

  createReport(
    data?: ExampleGroupsCreateReport.InputSchema,
    opts?: ExampleGroupsCreateReport.CallOptions,
  ): Promise<ExampleGroupsCreateReport.Response> {
    return this._client
      .call('example.groups.createReport', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsCreateReport.toKnownErr(e)
      })
  }

  createSpace(
    data?: ExampleGroupsCreateSpace.InputSchema,
    opts?: ExampleGroupsCreateSpace.CallOptions,
  ): Promise<ExampleGroupsCreateSpace.Response> {
    return this._client
      .call('example.groups.createSpace', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsCreateSpace.toKnownErr(e)
      })
  }

  deleteSpace(
    data?: ExampleGroupsDeleteSpace.InputSchema,
    opts?: ExampleGroupsDeleteSpace.CallOptions,
  ): Promise<ExampleGroupsDeleteSpace.Response> {
    return this._client
      .call('example.groups.deleteSpace', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsDeleteSpace.toKnownErr(e)
      })
  }

  ejectMember(
    data?: ExampleGroupsEjectMember.InputSchema,
    opts?: ExampleGroupsEjectMember.CallOptions,
  ): Promise<ExampleGroupsEjectMember.Response> {
    return this._client
      .call('example.groups.ejectMember', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsEjectMember.toKnownErr(e)
      })
  }

  emitModerationEvent(
    data?: ExampleGroupsEmitModerationEvent.InputSchema,
    opts?: ExampleGroupsEmitModerationEvent.CallOptions,
  ): Promise<ExampleGroupsEmitModerationEvent.Response> {
    return this._client
      .call('example.groups.emitModerationEvent', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsEmitModerationEvent.toKnownErr(e)
      })
  }

  getGroup(
    params?: ExampleGroupsGetGroup.QueryParams,
    opts?: ExampleGroupsGetGroup.CallOptions,
  ): Promise<ExampleGroupsGetGroup.Response> {
    return this._client
      .call('example.groups.getGroup', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsGetGroup.toKnownErr(e)
      })
  }

  getGroupAuth(
    data?: ExampleGroupsGetGroupAuth.InputSchema,
    opts?: ExampleGroupsGetGroupAuth.CallOptions,
  ): Promise<ExampleGroupsGetGroupAuth.Response> {
    return this._client
      .call('example.groups.getGroupAuth', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsGetGroupAuth.toKnownErr(e)
      })
  }

  getJoinRequest(
    params?: ExampleGroupsGetJoinRequest.QueryParams,
    opts?: ExampleGroupsGetJoinRequest.CallOptions,
  ): Promise<ExampleGroupsGetJoinRequest.Response> {
    return this._client
      .call('example.groups.getJoinRequest', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsGetJoinRequest.toKnownErr(e)
      })
  }

  getSubject(
    params?: ExampleGroupsGetSubject.QueryParams,
    opts?: ExampleGroupsGetSubject.CallOptions,
  ): Promise<ExampleGroupsGetSubject.Response> {
    return this._client
      .call('example.groups.getSubject', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsGetSubject.toKnownErr(e)
      })
  }

  grantRole(
    data?: ExampleGroupsGrantRole.InputSchema,
    opts?: ExampleGroupsGrantRole.CallOptions,
  ): Promise<ExampleGroupsGrantRole.Response> {
    return this._client
      .call('example.groups.grantRole', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsGrantRole.toKnownErr(e)
      })
  }

  leaveGroup(
    data?: ExampleGroupsLeaveGroup.InputSchema,
    opts?: ExampleGroupsLeaveGroup.CallOptions,
  ): Promise<ExampleGroupsLeaveGroup.Response> {
    return this._client
      .call('example.groups.leaveGroup', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsLeaveGroup.toKnownErr(e)
      })
  }

  listBans(
    params?: ExampleGroupsListBans.QueryParams,
    opts?: ExampleGroupsListBans.CallOptions,
  ): Promise<ExampleGroupsListBans.Response> {
    return this._client
      .call('example.groups.listBans', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsListBans.toKnownErr(e)
      })
  }

  listChanges(
    params?: ExampleGroupsListChanges.QueryParams,
    opts?: ExampleGroupsListChanges.CallOptions,
  ): Promise<ExampleGroupsListChanges.Response> {
    return this._client
      .call('example.groups.listChanges', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsListChanges.toKnownErr(e)
      })
  }

  listInvites(
    params?: ExampleGroupsListInvites.QueryParams,
    opts?: ExampleGroupsListInvites.CallOptions,
  ): Promise<ExampleGroupsListInvites.Response> {
    return this._client
      .call('example.groups.listInvites', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsListInvites.toKnownErr(e)
      })
  }

  listJoinRequests(
    params?: ExampleGroupsListJoinRequests.QueryParams,
    opts?: ExampleGroupsListJoinRequests.CallOptions,
  ): Promise<ExampleGroupsListJoinRequests.Response> {
    return this._client
      .call('example.groups.listJoinRequests', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsListJoinRequests.toKnownErr(e)
      })
  }

  listMemberRecords(
    params?: ExampleGroupsListMemberRecords.QueryParams,
    opts?: ExampleGroupsListMemberRecords.CallOptions,
  ): Promise<ExampleGroupsListMemberRecords.Response> {
    return this._client
      .call('example.groups.listMemberRecords', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsListMemberRecords.toKnownErr(e)
      })
  }

  listMembers(
    params?: ExampleGroupsListMembers.QueryParams,
    opts?: ExampleGroupsListMembers.CallOptions,
  ): Promise<ExampleGroupsListMembers.Response> {
    return this._client
      .call('example.groups.listMembers', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsListMembers.toKnownErr(e)
      })
  }

  listMyGroups(
    params?: ExampleGroupsListMyGroups.QueryParams,
    opts?: ExampleGroupsListMyGroups.CallOptions,
  ): Promise<ExampleGroupsListMyGroups.Response> {
    return this._client
      .call('example.groups.listMyGroups', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsListMyGroups.toKnownErr(e)
      })
  }

  listSubjects(
    params?: ExampleGroupsListSubjects.QueryParams,
    opts?: ExampleGroupsListSubjects.CallOptions,
  ): Promise<ExampleGroupsListSubjects.Response> {
    return this._client
      .call('example.groups.listSubjects', params, undefined, opts)
      .catch((e) => {
        throw ExampleGroupsListSubjects.toKnownErr(e)
      })
  }

  notifyWrite(
    data?: ExampleGroupsNotifyWrite.InputSchema,
    opts?: ExampleGroupsNotifyWrite.CallOptions,
  ): Promise<ExampleGroupsNotifyWrite.Response> {
    return this._client
      .call('example.groups.notifyWrite', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsNotifyWrite.toKnownErr(e)
      })
  }

  requestJoin(
    data?: ExampleGroupsRequestJoin.InputSchema,
    opts?: ExampleGroupsRequestJoin.CallOptions,
  ): Promise<ExampleGroupsRequestJoin.Response> {
    return this._client
      .call('example.groups.requestJoin', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsRequestJoin.toKnownErr(e)
      })
  }

  revokeInvite(
    data?: ExampleGroupsRevokeInvite.InputSchema,
    opts?: ExampleGroupsRevokeInvite.CallOptions,
  ): Promise<ExampleGroupsRevokeInvite.Response> {
    return this._client
      .call('example.groups.revokeInvite', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsRevokeInvite.toKnownErr(e)
      })
  }

  revokeRole(
    data?: ExampleGroupsRevokeRole.InputSchema,
    opts?: ExampleGroupsRevokeRole.CallOptions,
  ): Promise<ExampleGroupsRevokeRole.Response> {
    return this._client
      .call('example.groups.revokeRole', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsRevokeRole.toKnownErr(e)
      })
  }

  unbanMember(
    data?: ExampleGroupsUnbanMember.InputSchema,
    opts?: ExampleGroupsUnbanMember.CallOptions,
  ): Promise<ExampleGroupsUnbanMember.Response> {
    return this._client
      .call('example.groups.unbanMember', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsUnbanMember.toKnownErr(e)
      })
  }

  updateSpace(
    data?: ExampleGroupsUpdateSpace.InputSchema,
    opts?: ExampleGroupsUpdateSpace.CallOptions,
  ): Promise<ExampleGroupsUpdateSpace.Response> {
    return this._client
      .call('example.groups.updateSpace', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsUpdateSpace.toKnownErr(e)
      })
  }

  updateSubject(
    data?: ExampleGroupsUpdateSubject.InputSchema,
    opts?: ExampleGroupsUpdateSubject.CallOptions,
  ): Promise<ExampleGroupsUpdateSubject.Response> {
    return this._client
      .call('example.groups.updateSubject', opts?.qp, data, opts)
      .catch((e) => {
        throw ExampleGroupsUpdateSubject.toKnownErr(e)
      })
  }
}
