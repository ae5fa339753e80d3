/**
 * GENERATED CODE - DO NOT MODIFY
 */
import {
  type Auth,
  type Options as XrpcOptions,
  Server as XrpcServer,
  type StreamConfigOrHandler,
  type MethodConfigOrHandler,
  createServer as createXrpcServer,
} from '@atproto/xrpc-server'
import { schemas } from './lexicons.js'
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
import * as ExampleGroupsSubscribeChanges from './types/example/groups/subscribeChanges.js'
import * as ExampleGroupsUnbanMember from './types/example/groups/unbanMember.js'
import * as ExampleGroupsUpdateSpace from './types/example/groups/updateSpace.js'
import * as ExampleGroupsUpdateSubject from './types/example/groups/updateSubject.js'

export function createServer(options?: XrpcOptions): Server {
  return new Server(options)
}

export class Server {
  xrpc: XrpcServer
  com: ComNS
  community: CommunityNS
  example: ExampleNS

  constructor(options?: XrpcOptions) {
    this.xrpc = createXrpcServer(schemas, options)
    this.com = new ComNS(this)
    this.community = new CommunityNS(this)
    this.example = new ExampleNS(this)
  }
}

export class ComNS {
  _server: Server
  atproto: ComAtprotoNS

  constructor(server: Server) {
    this._server = server
    this.atproto = new ComAtprotoNS(server)
  }
}

export class ComAtprotoNS {
  _server: Server
  identity: ComAtprotoIdentityNS
  space: ComAtprotoSpaceNS

  constructor(server: Server) {
    this._server = server
    this.identity = new ComAtprotoIdentityNS(server)
    this.space = new ComAtprotoSpaceNS(server)
  }
}

export class ComAtprotoIdentityNS {
  _server: Server

  constructor(server: Server) {
    this._server = server
  }

  resolveHandle<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ComAtprotoIdentityResolveHandle.QueryParams,
      ComAtprotoIdentityResolveHandle.HandlerInput,
      ComAtprotoIdentityResolveHandle.HandlerOutput
    >,
  ) {
    const nsid = 'com.atproto.identity.resolveHandle' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }
}

export class ComAtprotoSpaceNS {
  _server: Server

  constructor(server: Server) {
    this._server = server
  }

  createRecord<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ComAtprotoSpaceCreateRecord.QueryParams,
      ComAtprotoSpaceCreateRecord.HandlerInput,
      ComAtprotoSpaceCreateRecord.HandlerOutput
    >,
  ) {
    const nsid = 'com.atproto.space.createRecord' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  deleteRecord<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ComAtprotoSpaceDeleteRecord.QueryParams,
      ComAtprotoSpaceDeleteRecord.HandlerInput,
      ComAtprotoSpaceDeleteRecord.HandlerOutput
    >,
  ) {
    const nsid = 'com.atproto.space.deleteRecord' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  getRecord<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ComAtprotoSpaceGetRecord.QueryParams,
      ComAtprotoSpaceGetRecord.HandlerInput,
      ComAtprotoSpaceGetRecord.HandlerOutput
    >,
  ) {
    const nsid = 'com.atproto.space.getRecord' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  listRecords<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ComAtprotoSpaceListRecords.QueryParams,
      ComAtprotoSpaceListRecords.HandlerInput,
      ComAtprotoSpaceListRecords.HandlerOutput
    >,
  ) {
    const nsid = 'com.atproto.space.listRecords' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  putRecord<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ComAtprotoSpacePutRecord.QueryParams,
      ComAtprotoSpacePutRecord.HandlerInput,
      ComAtprotoSpacePutRecord.HandlerOutput
    >,
  ) {
    const nsid = 'com.atproto.space.putRecord' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }
}

export class CommunityNS {
  _server: Server
  lexicon: CommunityLexiconNS

  constructor(server: Server) {
    this._server = server
    this.lexicon = new CommunityLexiconNS(server)
  }
}

export class CommunityLexiconNS {
  _server: Server
  calendar: CommunityLexiconCalendarNS

  constructor(server: Server) {
    this._server = server
    this.calendar = new CommunityLexiconCalendarNS(server)
  }
}

export class CommunityLexiconCalendarNS {
  _server: Server

  constructor(server: Server) {
    this._server = server
  }
}

export class ExampleNS {
  _server: Server
  groups: ExampleGroupsNS

  constructor(server: Server) {
    this._server = server
    this.groups = new ExampleGroupsNS(server)
  }
}

export class ExampleGroupsNS {
  _server: Server

  constructor(server: Server) {
    this._server = server
  }

  admitMember<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsAdmitMember.QueryParams,
      ExampleGroupsAdmitMember.HandlerInput,
      ExampleGroupsAdmitMember.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.admitMember' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  cancelJoinRequest<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsCancelJoinRequest.QueryParams,
      ExampleGroupsCancelJoinRequest.HandlerInput,
      ExampleGroupsCancelJoinRequest.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.cancelJoinRequest' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  configureGroup<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsConfigureGroup.QueryParams,
      ExampleGroupsConfigureGroup.HandlerInput,
      ExampleGroupsConfigureGroup.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.configureGroup' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  createGroup<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsCreateGroup.QueryParams,
      ExampleGroupsCreateGroup.HandlerInput,
      ExampleGroupsCreateGroup.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.createGroup' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  createInvite<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsCreateInvite.QueryParams,
      ExampleGroupsCreateInvite.HandlerInput,
      ExampleGroupsCreateInvite.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.createInvite' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  createReport<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsCreateReport.QueryParams,
      ExampleGroupsCreateReport.HandlerInput,
      ExampleGroupsCreateReport.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.createReport' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  createSpace<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsCreateSpace.QueryParams,
      ExampleGroupsCreateSpace.HandlerInput,
      ExampleGroupsCreateSpace.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.createSpace' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  deleteSpace<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsDeleteSpace.QueryParams,
      ExampleGroupsDeleteSpace.HandlerInput,
      ExampleGroupsDeleteSpace.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.deleteSpace' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  ejectMember<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsEjectMember.QueryParams,
      ExampleGroupsEjectMember.HandlerInput,
      ExampleGroupsEjectMember.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.ejectMember' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  emitModerationEvent<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsEmitModerationEvent.QueryParams,
      ExampleGroupsEmitModerationEvent.HandlerInput,
      ExampleGroupsEmitModerationEvent.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.emitModerationEvent' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  getGroup<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsGetGroup.QueryParams,
      ExampleGroupsGetGroup.HandlerInput,
      ExampleGroupsGetGroup.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.getGroup' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  getGroupAuth<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsGetGroupAuth.QueryParams,
      ExampleGroupsGetGroupAuth.HandlerInput,
      ExampleGroupsGetGroupAuth.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.getGroupAuth' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  getJoinRequest<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsGetJoinRequest.QueryParams,
      ExampleGroupsGetJoinRequest.HandlerInput,
      ExampleGroupsGetJoinRequest.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.getJoinRequest' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  getSubject<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsGetSubject.QueryParams,
      ExampleGroupsGetSubject.HandlerInput,
      ExampleGroupsGetSubject.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.getSubject' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  grantRole<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsGrantRole.QueryParams,
      ExampleGroupsGrantRole.HandlerInput,
      ExampleGroupsGrantRole.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.grantRole' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  leaveGroup<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsLeaveGroup.QueryParams,
      ExampleGroupsLeaveGroup.HandlerInput,
      ExampleGroupsLeaveGroup.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.leaveGroup' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  listBans<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsListBans.QueryParams,
      ExampleGroupsListBans.HandlerInput,
      ExampleGroupsListBans.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.listBans' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  listChanges<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsListChanges.QueryParams,
      ExampleGroupsListChanges.HandlerInput,
      ExampleGroupsListChanges.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.listChanges' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  listInvites<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsListInvites.QueryParams,
      ExampleGroupsListInvites.HandlerInput,
      ExampleGroupsListInvites.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.listInvites' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  listJoinRequests<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsListJoinRequests.QueryParams,
      ExampleGroupsListJoinRequests.HandlerInput,
      ExampleGroupsListJoinRequests.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.listJoinRequests' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  listMemberRecords<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsListMemberRecords.QueryParams,
      ExampleGroupsListMemberRecords.HandlerInput,
      ExampleGroupsListMemberRecords.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.listMemberRecords' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  listMembers<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsListMembers.QueryParams,
      ExampleGroupsListMembers.HandlerInput,
      ExampleGroupsListMembers.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.listMembers' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  listMyGroups<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsListMyGroups.QueryParams,
      ExampleGroupsListMyGroups.HandlerInput,
      ExampleGroupsListMyGroups.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.listMyGroups' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  listSubjects<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsListSubjects.QueryParams,
      ExampleGroupsListSubjects.HandlerInput,
      ExampleGroupsListSubjects.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.listSubjects' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  notifyWrite<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsNotifyWrite.QueryParams,
      ExampleGroupsNotifyWrite.HandlerInput,
      ExampleGroupsNotifyWrite.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.notifyWrite' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  requestJoin<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsRequestJoin.QueryParams,
      ExampleGroupsRequestJoin.HandlerInput,
      ExampleGroupsRequestJoin.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.requestJoin' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  revokeInvite<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsRevokeInvite.QueryParams,
      ExampleGroupsRevokeInvite.HandlerInput,
      ExampleGroupsRevokeInvite.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.revokeInvite' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  revokeRole<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsRevokeRole.QueryParams,
      ExampleGroupsRevokeRole.HandlerInput,
      ExampleGroupsRevokeRole.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.revokeRole' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  subscribeChanges<A extends Auth = void>(
    cfg: StreamConfigOrHandler<
      A,
      ExampleGroupsSubscribeChanges.QueryParams,
      ExampleGroupsSubscribeChanges.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.subscribeChanges' // @ts-ignore
    return this._server.xrpc.streamMethod(nsid, cfg)
  }

  unbanMember<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsUnbanMember.QueryParams,
      ExampleGroupsUnbanMember.HandlerInput,
      ExampleGroupsUnbanMember.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.unbanMember' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  updateSpace<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsUpdateSpace.QueryParams,
      ExampleGroupsUpdateSpace.HandlerInput,
      ExampleGroupsUpdateSpace.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.updateSpace' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }

  updateSubject<A extends Auth = void>(
    cfg: MethodConfigOrHandler<
      A,
      ExampleGroupsUpdateSubject.QueryParams,
      ExampleGroupsUpdateSubject.HandlerInput,
      ExampleGroupsUpdateSubject.HandlerOutput
    >,
  ) {
    const nsid = 'example.groups.updateSubject' // @ts-ignore
    return this._server.xrpc.method(nsid, cfg)
  }
}
