/**
 * GENERATED CODE - DO NOT MODIFY
 */
import {
  type LexiconDoc,
  Lexicons,
  ValidationError,
  type ValidationResult,
} from '@atproto/lexicon'
import { type $Typed, is$typed, maybe$typed } from './util.js'

export const schemaDict = {
  ComAtprotoIdentityResolveHandle: {
    lexicon: 1,
    id: 'com.atproto.identity.resolveHandle',
    description:
      'Resolves an atproto handle to a DID. The group host answers for the handles of the groups it hosts.',
    defs: {
      main: {
        type: 'query',
        description:
          'Resolves an atproto handle to a DID. The group host answers for the handles of the groups it hosts.',
        parameters: {
          type: 'params',
          required: ['handle'],
          properties: {
            handle: {
              type: 'string',
              format: 'handle',
              description: 'The handle to resolve.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['did'],
            properties: {
              did: {
                type: 'string',
                format: 'did',
              },
            },
          },
        },
        errors: [
          {
            name: 'HandleNotFound',
            description: 'No group on this host has that handle.',
          },
        ],
      },
    },
  },
  ComAtprotoSpaceCreateRecord: {
    lexicon: 1,
    id: 'com.atproto.space.createRecord',
    description:
      'Create a record in a space; the host assigns the rkey unless one is given.',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Create a record in a space; the host assigns the rkey unless one is given.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['space', 'repo', 'collection', 'record'],
            properties: {
              space: {
                type: 'string',
                description:
                  'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
                maxLength: 2048,
              },
              repo: {
                type: 'string',
                description:
                  'DID of the repo written to: the member for member writes, the group for group writes.',
                format: 'did',
              },
              collection: {
                type: 'string',
                description: 'NSID of the record collection.',
                format: 'nsid',
              },
              rkey: {
                type: 'string',
                description: 'Record key; assigned by the host when absent.',
                format: 'record-key',
                maxLength: 512,
              },
              record: {
                type: 'unknown',
                description: 'The record; its $type equals the collection.',
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['uri', 'cid'],
            properties: {
              uri: {
                type: 'string',
                description: 'at:// address of the record.',
                maxLength: 2048,
              },
              cid: {
                type: 'string',
                description: 'CID of the record.',
                format: 'cid',
              },
            },
          },
        },
        errors: [
          {
            name: 'InvalidRequest',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'SpaceNotFound',
          },
          {
            name: 'DpopRequired',
          },
          {
            name: 'InvalidDpop',
          },
        ],
      },
    },
  },
  ComAtprotoSpaceDeleteRecord: {
    lexicon: 1,
    id: 'com.atproto.space.deleteRecord',
    description: 'Delete a record from a space.',
    defs: {
      main: {
        type: 'procedure',
        description: 'Delete a record from a space.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['space', 'repo', 'collection', 'rkey'],
            properties: {
              space: {
                type: 'string',
                description:
                  'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
                maxLength: 2048,
              },
              repo: {
                type: 'string',
                description:
                  'DID of the repo written to: the member for member writes, the group for group writes.',
                format: 'did',
              },
              collection: {
                type: 'string',
                description: 'NSID of the record collection.',
                format: 'nsid',
              },
              rkey: {
                type: 'string',
                description: 'Record key.',
                format: 'record-key',
                maxLength: 512,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {},
          },
        },
        errors: [
          {
            name: 'InvalidRequest',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'SpaceNotFound',
          },
          {
            name: 'DpopRequired',
          },
          {
            name: 'InvalidDpop',
          },
        ],
      },
    },
  },
  ComAtprotoSpaceGetRecord: {
    lexicon: 1,
    id: 'com.atproto.space.getRecord',
    description: 'Get one record from a space.',
    defs: {
      main: {
        type: 'query',
        description: 'Get one record from a space.',
        parameters: {
          type: 'params',
          required: ['space', 'repo', 'collection', 'rkey'],
          properties: {
            space: {
              type: 'string',
              description:
                'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
              maxLength: 2048,
            },
            repo: {
              type: 'string',
              description:
                'DID of the repo written to: the member for member writes, the group for group writes.',
              format: 'did',
            },
            collection: {
              type: 'string',
              description: 'NSID of the record collection.',
              format: 'nsid',
            },
            rkey: {
              type: 'string',
              description: 'Record key.',
              format: 'record-key',
              maxLength: 512,
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['uri', 'value'],
            properties: {
              uri: {
                type: 'string',
                description: 'at:// address of the record.',
                maxLength: 2048,
              },
              cid: {
                type: 'string',
                description: 'CID of the record.',
                format: 'cid',
              },
              value: {
                type: 'unknown',
                description: 'The record.',
              },
              takenDown: {
                type: 'boolean',
                description:
                  "Set for readers holding mod.read: the group's moderators took this record down, so other members are not served it.",
              },
            },
          },
        },
        errors: [
          {
            name: 'RecordNotFound',
          },
          {
            name: 'InvalidRequest',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'SpaceNotFound',
          },
        ],
      },
    },
  },
  ComAtprotoSpaceListRecords: {
    lexicon: 1,
    id: 'com.atproto.space.listRecords',
    description: 'List records of one collection of one repo in a space.',
    defs: {
      main: {
        type: 'query',
        description: 'List records of one collection of one repo in a space.',
        parameters: {
          type: 'params',
          required: ['space', 'repo', 'collection'],
          properties: {
            space: {
              type: 'string',
              description:
                'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
              maxLength: 2048,
            },
            repo: {
              type: 'string',
              description:
                'DID of the repo written to: the member for member writes, the group for group writes.',
              format: 'did',
            },
            collection: {
              type: 'string',
              description: 'NSID of the record collection.',
              format: 'nsid',
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size.',
            },
            cursor: {
              type: 'string',
              description: 'Opaque pagination cursor from a previous page.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['records'],
            properties: {
              records: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:com.atproto.space.listRecords#record',
                },
              },
              cursor: {
                type: 'string',
                description: 'Opaque pagination cursor from a previous page.',
              },
            },
          },
        },
        errors: [
          {
            name: 'InvalidRequest',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'SpaceNotFound',
          },
        ],
      },
      record: {
        type: 'object',
        description: 'A record in a space.',
        required: ['uri', 'value'],
        properties: {
          uri: {
            type: 'string',
            description: 'at:// address of the record.',
            maxLength: 2048,
          },
          cid: {
            type: 'string',
            description: 'CID of the record.',
            format: 'cid',
          },
          value: {
            type: 'unknown',
            description: 'The record.',
          },
          takenDown: {
            type: 'boolean',
            description:
              "Set for readers holding mod.read: the group's moderators took this record down, so other members are not served it.",
          },
        },
      },
    },
  },
  ComAtprotoSpacePutRecord: {
    lexicon: 1,
    id: 'com.atproto.space.putRecord',
    description: 'Create or overwrite a record with a stable rkey in a space.',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Create or overwrite a record with a stable rkey in a space.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['space', 'repo', 'collection', 'rkey', 'record'],
            properties: {
              space: {
                type: 'string',
                description:
                  'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
                maxLength: 2048,
              },
              repo: {
                type: 'string',
                description:
                  'DID of the repo written to: the member for member writes, the group for group writes.',
                format: 'did',
              },
              collection: {
                type: 'string',
                description: 'NSID of the record collection.',
                format: 'nsid',
              },
              rkey: {
                type: 'string',
                description: 'Record key.',
                format: 'record-key',
                maxLength: 512,
              },
              record: {
                type: 'unknown',
                description: 'The record; its $type equals the collection.',
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['uri', 'cid'],
            properties: {
              uri: {
                type: 'string',
                description: 'at:// address of the record.',
                maxLength: 2048,
              },
              cid: {
                type: 'string',
                description: 'CID of the record.',
                format: 'cid',
              },
            },
          },
        },
        errors: [
          {
            name: 'InvalidRequest',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'SpaceNotFound',
          },
          {
            name: 'DpopRequired',
          },
          {
            name: 'InvalidDpop',
          },
        ],
      },
    },
  },
  CommunityLexiconCalendarEvent: {
    lexicon: 1,
    id: 'community.lexicon.calendar.event',
    description: 'A calendar event on a group calendar, written by the group.',
    defs: {
      main: {
        type: 'record',
        description:
          'A calendar event on a group calendar, written by the group.',
        key: 'tid',
        record: {
          type: 'object',
          required: ['name', 'startsAt', 'createdAt'],
          properties: {
            name: {
              type: 'string',
              description: 'Name of the event.',
              maxLength: 1000,
              maxGraphemes: 100,
            },
            startsAt: {
              type: 'string',
              description: 'When the event starts.',
              format: 'datetime',
            },
            endsAt: {
              type: 'string',
              description: 'When the event ends.',
              format: 'datetime',
            },
            description: {
              type: 'string',
              description: 'Description of the event.',
              maxLength: 30000,
              maxGraphemes: 3000,
            },
            location: {
              type: 'string',
              description: 'Where the event takes place, as free text.',
              maxLength: 3000,
              maxGraphemes: 300,
            },
            createdAt: {
              type: 'string',
              description: 'When the record was created.',
              format: 'datetime',
            },
          },
        },
      },
    },
  },
  ExampleGroupsAcceptance: {
    lexicon: 1,
    id: 'example.groups.acceptance',
    description:
      "A member's acceptance of their membership, one per group (rkey self), written in the group's members space on the member's own PDS.",
    defs: {
      main: {
        type: 'record',
        description:
          "A member's acceptance of their membership, one per group (rkey self), written in the group's members space on the member's own PDS.",
        key: 'literal:self',
        record: {
          type: 'object',
          required: ['createdAt'],
          properties: {
            createdAt: {
              type: 'string',
              description: 'When the member accepted.',
              format: 'datetime',
            },
          },
        },
      },
    },
  },
  ExampleGroupsAdmitMember: {
    lexicon: 1,
    id: 'example.groups.admitMember',
    description: 'Admit or deny a pending join request (requires admit).',
    defs: {
      main: {
        type: 'procedure',
        description: 'Admit or deny a pending join request (requires admit).',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'did', 'decision'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              did: {
                type: 'string',
                description: 'DID of the requester.',
                format: 'did',
              },
              decision: {
                type: 'string',
                description: 'admit or deny.',
                enum: ['admit', 'deny'],
              },
              roles: {
                type: 'array',
                description: 'Roles to give on admission; default [member].',
                items: {
                  type: 'string',
                  maxLength: 64,
                },
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'RequestNotFound',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'NotAssignable',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsBasePermissions: {
    lexicon: 1,
    id: 'example.groups.basePermissions',
    description:
      'Permission set for members and organizers: service-auth calls to every example.groups method on the group host, and writing the acceptance record.',
    defs: {
      main: {
        type: 'permission-set',
        title: 'Groups',
        detail:
          'Join and leave groups, manage the groups you organize, and record your acceptance of membership.',
        description:
          'Permission set for members and organizers: service-auth calls to every example.groups method on the group host, and writing the acceptance record.',
        permissions: [
          {
            type: 'permission',
            resource: 'rpc',
            inheritAud: true,
            lxm: [
              'example.groups.requestJoin',
              'example.groups.getJoinRequest',
              'example.groups.cancelJoinRequest',
              'example.groups.listJoinRequests',
              'example.groups.admitMember',
              'example.groups.createInvite',
              'example.groups.leaveGroup',
              'example.groups.listSubjects',
              'example.groups.getGroupAuth',
              'example.groups.createSpace',
              'example.groups.getGroup',
              'example.groups.listMembers',
              'example.groups.grantRole',
              'example.groups.revokeRole',
              'example.groups.ejectMember',
              'example.groups.unbanMember',
              'example.groups.listBans',
              'example.groups.listInvites',
              'example.groups.revokeInvite',
              'example.groups.updateSpace',
              'example.groups.deleteSpace',
              'example.groups.createReport',
              'example.groups.updateSubject',
              'example.groups.getSubject',
              'example.groups.emitModerationEvent',
              'example.groups.configureGroup',
              'example.groups.createGroup',
              'example.groups.listChanges',
              'example.groups.subscribeChanges',
              'example.groups.listMyGroups',
              'example.groups.listMemberRecords',
            ],
          },
          {
            type: 'permission',
            resource: 'repo',
            collection: ['example.groups.acceptance'],
            action: ['create', 'update', 'delete'],
          },
        ],
      },
    },
  },
  ExampleGroupsCalendarPermissions: {
    lexicon: 1,
    id: 'example.groups.calendarPermissions',
    description:
      'Permission set for writing RSVPs (example.groups.rsvp) to your own PDS.',
    defs: {
      main: {
        type: 'permission-set',
        title: 'Event RSVPs',
        detail: 'Answer, change and withdraw your RSVPs to group events.',
        description:
          'Permission set for writing RSVPs (example.groups.rsvp) to your own PDS.',
        permissions: [
          {
            type: 'permission',
            resource: 'repo',
            collection: ['example.groups.rsvp'],
            action: ['create', 'update', 'delete'],
          },
        ],
      },
    },
  },
  ExampleGroupsCancelJoinRequest: {
    lexicon: 1,
    id: 'example.groups.cancelJoinRequest',
    description: "Withdraw the caller's own pending join request.",
    defs: {
      main: {
        type: 'procedure',
        description: "Withdraw the caller's own pending join request.",
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'RequestNotFound',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsConfigureGroup: {
    lexicon: 1,
    id: 'example.groups.configureGroup',
    description:
      "Change a group's profile or join policy (requires group.configure).",
    defs: {
      main: {
        type: 'procedure',
        description:
          "Change a group's profile or join policy (requires group.configure).",
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              displayName: {
                type: 'string',
                description: 'Display name of the group.',
                maxLength: 640,
                maxGraphemes: 64,
              },
              description: {
                type: 'string',
                description: 'Free-text description of the group.',
                maxLength: 2560,
                maxGraphemes: 256,
              },
              joinPolicy: {
                type: 'string',
                description:
                  'How people join: open admits at once, approval creates a pending request, invite requires an invite.',
                knownValues: ['open', 'approval', 'invite'],
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsCreateGroup: {
    lexicon: 1,
    id: 'example.groups.createGroup',
    description:
      'Create a new group on this host; the caller becomes its owner.',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Create a new group on this host; the caller becomes its owner.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['handle', 'joinPolicy'],
            properties: {
              handle: {
                type: 'string',
                description: 'Handle for the new group.',
                format: 'handle',
              },
              displayName: {
                type: 'string',
                description: 'Display name of the group.',
                maxLength: 640,
                maxGraphemes: 64,
              },
              description: {
                type: 'string',
                description: 'Free-text description of the group.',
                maxLength: 2560,
                maxGraphemes: 256,
              },
              joinPolicy: {
                type: 'string',
                description:
                  'How people join: open admits at once, approval creates a pending request, invite requires an invite.',
                knownValues: ['open', 'approval', 'invite'],
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['did', 'handle'],
            properties: {
              did: {
                type: 'string',
                description: 'DID of the new group.',
                format: 'did',
              },
              handle: {
                type: 'string',
                description: 'Handle of the new group.',
                format: 'handle',
              },
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsCreateInvite: {
    lexicon: 1,
    id: 'example.groups.createInvite',
    description: 'Invite a person to the group (requires invite).',
    defs: {
      main: {
        type: 'procedure',
        description: 'Invite a person to the group (requires invite).',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'invitee'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              invitee: {
                type: 'string',
                description: 'DID of the person to invite.',
                format: 'did',
              },
              message: {
                type: 'string',
                description: 'Optional message to the invitee.',
                maxLength: 3000,
                maxGraphemes: 300,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['uri'],
            properties: {
              uri: {
                type: 'string',
                description:
                  'Address of the invite: an at:// address, or pending:<did> when the invitee cannot be reached yet (their DID does not resolve, so they have no invites space); either way the invite redeems when they ask to join.',
              },
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'AlreadyMember',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsCreateReport: {
    lexicon: 1,
    id: 'example.groups.createReport',
    description: 'Report an account or record to the moderators of a group.',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Report an account or record to the moderators of a group.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'subject', 'reasonType'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              subject: {
                type: 'union',
                description: 'The account or record being reported.',
                refs: [
                  'lex:example.groups.defs#subjectAccount',
                  'lex:example.groups.defs#subjectRecord',
                ],
              },
              reasonType: {
                type: 'string',
                description:
                  "Kind of problem: one of atproto's reason types (com.atproto.moderation.defs#reason*). Other non-blank values are kept as given, for older clients.",
                maxLength: 256,
                knownValues: [
                  'com.atproto.moderation.defs#reasonSpam',
                  'com.atproto.moderation.defs#reasonViolation',
                  'com.atproto.moderation.defs#reasonMisleading',
                  'com.atproto.moderation.defs#reasonSexual',
                  'com.atproto.moderation.defs#reasonRude',
                  'com.atproto.moderation.defs#reasonOther',
                  'com.atproto.moderation.defs#reasonAppeal',
                ],
              },
              reason: {
                type: 'string',
                description:
                  "Free-text explanation, shown to the group's moderators.",
                maxLength: 20000,
                maxGraphemes: 2000,
              },
              idempotencyKey: {
                type: 'string',
                minLength: 1,
                maxLength: 128,
                description:
                  "Chosen by the reporter's client for this report; the same reporter sending the same key again (a retry after a lost answer) is taken as the one report already made.",
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
            description:
              "Not a member, or a record in one of the group's spaces that the reporter's roles may not read (or in a space the group does not have).",
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsCreateSpace: {
    lexicon: 1,
    id: 'example.groups.createSpace',
    description:
      "Create a space for the group, write its access record and add it to the group's space index (requires space.create).",
    defs: {
      main: {
        type: 'procedure',
        description:
          "Create a space for the group, write its access record and add it to the group's space index (requires space.create).",
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: [
              'group',
              'type',
              'skey',
              'name',
              'readableBy',
              'credentialScopes',
            ],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              type: {
                type: 'string',
                description: 'Space type.',
                maxLength: 512,
              },
              skey: {
                type: 'string',
                description: 'Space key; self for single-instance spaces.',
                maxLength: 512,
              },
              name: {
                type: 'string',
                description: 'Human-readable name of the space.',
                maxLength: 640,
                maxGraphemes: 64,
              },
              readableBy: {
                type: 'array',
                description: 'Roles that may read the space.',
                items: {
                  type: 'string',
                  maxLength: 64,
                },
              },
              credentialScopes: {
                type: 'array',
                description:
                  'Per role, the collections a group credential may write in the space.',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.defs#credentialScope',
                },
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['uri'],
            properties: {
              uri: {
                type: 'string',
                description:
                  'Address of the new space, at://<group_did>/space/<space_type>/<skey>.',
                maxLength: 2048,
              },
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsDefs: {
    lexicon: 1,
    id: 'example.groups.defs',
    description:
      'Shared object definitions for the example.groups group service.',
    defs: {
      joinRequest: {
        type: 'object',
        description: 'A join request waiting for a decision.',
        required: ['id', 'did', 'createdAt'],
        properties: {
          id: {
            type: 'string',
            description: 'Identifier of the join request.',
          },
          did: {
            type: 'string',
            description: 'DID of the person asking to join.',
            format: 'did',
          },
          createdAt: {
            type: 'string',
            description: 'When the request was made.',
            format: 'datetime',
          },
          message: {
            type: 'string',
            description: 'Optional message from the requester.',
            maxLength: 3000,
            maxGraphemes: 300,
          },
          invite: {
            type: 'string',
            description:
              'Address of the invite redeemed by this request, if any (an at:// address or pending:<did>).',
          },
        },
      },
      invite: {
        type: 'object',
        description: 'An outstanding invite.',
        required: ['uri', 'invitee', 'createdAt'],
        properties: {
          uri: {
            type: 'string',
            description:
              'Address of the invite: an at:// address, or pending:<did> when the invitee has no invites space yet.',
          },
          invitee: {
            type: 'string',
            description: 'DID of the invited person.',
            format: 'did',
          },
          createdAt: {
            type: 'string',
            description: 'When the invite was made.',
            format: 'datetime',
          },
          expiresAt: {
            type: 'string',
            description:
              'When the invite stops being redeemable, if it expires.',
            format: 'datetime',
          },
          message: {
            type: 'string',
            description: 'Optional message to the invitee.',
            maxLength: 3000,
            maxGraphemes: 300,
          },
        },
      },
      subjectAccount: {
        type: 'object',
        description: 'A moderation subject that is an account.',
        required: ['did'],
        properties: {
          did: {
            type: 'string',
            description: 'DID of the account.',
            format: 'did',
          },
        },
      },
      subjectRecord: {
        type: 'object',
        description: 'A moderation subject that is a record.',
        required: ['uri'],
        properties: {
          uri: {
            type: 'string',
            description: 'at:// address of the record.',
            maxLength: 2048,
          },
          cid: {
            type: 'string',
            description: 'CID of the record version, if pinned.',
            format: 'cid',
          },
        },
      },
      subject: {
        type: 'object',
        description: 'A moderation subject with its status.',
        required: [
          'subject',
          'status',
          'createdAt',
          'updatedAt',
          'reportCount',
        ],
        properties: {
          subject: {
            type: 'union',
            description: 'The moderation subject: an account or a record.',
            refs: [
              'lex:example.groups.defs#subjectAccount',
              'lex:example.groups.defs#subjectRecord',
            ],
          },
          status: {
            type: 'string',
            description: 'Moderation status of the subject.',
            knownValues: ['open', 'escalated', 'resolved'],
          },
          createdAt: {
            type: 'string',
            description: 'When the subject was first reported.',
            format: 'datetime',
          },
          updatedAt: {
            type: 'string',
            description: 'When the subject last changed.',
            format: 'datetime',
          },
          reportCount: {
            type: 'integer',
            minimum: 0,
            description:
              "How many people reported the subject: one person's repeated reports count once (getSubject lists every report).",
          },
          takenDown: {
            type: 'boolean',
            description:
              'Whether a takedown is in force: a record is not served to members, an account is banned.',
          },
          lastReport: {
            type: 'ref',
            ref: 'lex:example.groups.defs#reportView',
            description: 'The newest report.',
          },
          reasonTypes: {
            type: 'array',
            description: 'The distinct reason types reported.',
            items: {
              type: 'string',
              maxLength: 256,
            },
          },
          assignedTo: {
            type: 'ref',
            ref: 'lex:example.groups.defs#assignment',
            description:
              'Who has taken the subject ("I\'m on it"), while it lasts; absent when nobody has it.',
          },
        },
      },
      assignment: {
        type: 'object',
        description:
          "A moderator's hold on a subject (Ozone's moderator assignment): the others see who has it. Released when they resolve it, by hand (emitModerationEvent unassign), or at endAt.",
        required: ['did', 'startAt', 'endAt'],
        properties: {
          did: {
            type: 'string',
            format: 'did',
            description: 'The moderator who has it.',
          },
          startAt: {
            type: 'string',
            format: 'datetime',
            description: 'When they took it.',
          },
          endAt: {
            type: 'string',
            format: 'datetime',
            description: 'When it lapses unless taken again.',
          },
        },
      },
      role: {
        type: 'object',
        description: 'A role of the group.',
        required: ['name', 'actions', 'assignable'],
        properties: {
          name: {
            type: 'string',
            description: 'Role name, e.g. owner, admin, moderator, member.',
            maxLength: 64,
          },
          actions: {
            type: 'array',
            description:
              'Actions the role confers. Unknown actions confer nothing.',
            items: {
              type: 'string',
              knownValues: [
                'mod.read',
                'mod.resolve',
                'invite',
                'admit',
                'eject',
                'role.assign',
                'space.create',
                'space.configure',
                'space.delete',
                'group.configure',
              ],
            },
          },
          assignable: {
            type: 'array',
            description:
              'Roles a holder of this role may grant, revoke or eject.',
            items: {
              type: 'string',
              maxLength: 64,
            },
          },
        },
      },
      member: {
        type: 'object',
        description: 'A member of the group.',
        required: ['did', 'roles', 'joinedAt', 'accepted'],
        properties: {
          did: {
            type: 'string',
            description: 'DID of the member.',
            format: 'did',
          },
          handle: {
            type: 'string',
            description: 'Handle of the member, if known.',
            format: 'handle',
          },
          roles: {
            type: 'array',
            description: 'Roles the member holds.',
            items: {
              type: 'string',
              maxLength: 64,
            },
          },
          joinedAt: {
            type: 'string',
            description: 'When the member was admitted.',
            format: 'datetime',
          },
          accepted: {
            type: 'boolean',
            description:
              "Whether the member's acceptance record has been seen.",
          },
        },
      },
      credentialScope: {
        type: 'object',
        description: 'Per-role write scope of a space.',
        required: ['role', 'scopes'],
        properties: {
          role: {
            type: 'string',
            description: 'Role name, e.g. owner, admin, moderator, member.',
            maxLength: 64,
          },
          scopes: {
            type: 'array',
            description:
              'Collection names a group credential for this role may write; the single value * means every collection in the space.',
            items: {
              type: 'string',
            },
          },
        },
      },
      viewerState: {
        type: 'object',
        description: "The caller's standing in the group.",
        required: ['roles', 'actions'],
        properties: {
          roles: {
            type: 'array',
            description: "The caller's roles in the group.",
            items: {
              type: 'string',
              maxLength: 64,
            },
          },
          actions: {
            type: 'array',
            description:
              "The caller's effective actions (union over their roles).",
            items: {
              type: 'string',
              knownValues: [
                'mod.read',
                'mod.resolve',
                'invite',
                'admit',
                'eject',
                'role.assign',
                'space.create',
                'space.configure',
                'space.delete',
                'group.configure',
              ],
            },
          },
        },
      },
      groupView: {
        type: 'object',
        description: 'A group profile with its roles.',
        required: ['did', 'joinPolicy', 'roles'],
        properties: {
          did: {
            type: 'string',
            description: 'DID of the group.',
            format: 'did',
          },
          handle: {
            type: 'string',
            description: 'Handle of the group.',
            format: 'handle',
          },
          displayName: {
            type: 'string',
            description: 'Display name of the group.',
            maxLength: 640,
            maxGraphemes: 64,
          },
          description: {
            type: 'string',
            description: 'Free-text description of the group.',
            maxLength: 2560,
            maxGraphemes: 256,
          },
          joinPolicy: {
            type: 'string',
            description:
              'How people join: open admits at once, approval creates a pending request, invite requires an invite.',
            knownValues: ['open', 'approval', 'invite'],
          },
          roles: {
            type: 'array',
            description: 'Roles defined in the group.',
            items: {
              type: 'ref',
              ref: 'lex:example.groups.defs#role',
            },
          },
          viewer: {
            type: 'ref',
            ref: 'lex:example.groups.defs#viewerState',
            description:
              "The caller's roles and effective actions, when the caller is a member.",
          },
        },
      },
      change: {
        type: 'object',
        description: 'An entry of the per-group change log.',
        required: ['seq', 'kind', 'createdAt'],
        properties: {
          seq: {
            type: 'integer',
            minimum: 0,
            description:
              'Position in the group change log; increases with every change.',
          },
          kind: {
            type: 'string',
            description:
              'What changed, e.g. joinRequest.created, joinRequest.admitted, member.joined, member.roleGranted, invite.created, space.created, record.created, subject.reported (src/host/changes.ts lists them all).',
          },
          subject: {
            type: 'string',
            description:
              'What the change is about (a DID, an at:// address or an identifier), if any.',
          },
          createdAt: {
            type: 'string',
            description: 'When the change happened.',
            format: 'datetime',
          },
        },
      },
      spaceView: {
        type: 'object',
        description: 'A space of the group with its access record.',
        required: [
          'uri',
          'type',
          'skey',
          'name',
          'readableBy',
          'credentialScopes',
        ],
        properties: {
          uri: {
            type: 'string',
            description:
              'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
            maxLength: 2048,
          },
          type: {
            type: 'string',
            description: 'Space type.',
          },
          skey: {
            type: 'string',
            description: 'Space key; self for single-instance spaces.',
          },
          name: {
            type: 'string',
            description: 'Human-readable name of the space.',
          },
          readableBy: {
            type: 'array',
            description: 'Roles that may read the space.',
            items: {
              type: 'string',
              maxLength: 64,
            },
          },
          credentialScopes: {
            type: 'array',
            description:
              'Per role, the collections a group credential may write in the space.',
            items: {
              type: 'ref',
              ref: 'lex:example.groups.defs#credentialScope',
            },
          },
        },
      },
      reportView: {
        type: 'object',
        description:
          'One report of a subject. reportedBy is shown to moderators, never to the reported person.',
        required: ['id', 'reasonType', 'createdAt'],
        properties: {
          id: {
            type: 'integer',
          },
          reasonType: {
            type: 'string',
            maxLength: 256,
            knownValues: [
              'com.atproto.moderation.defs#reasonSpam',
              'com.atproto.moderation.defs#reasonViolation',
              'com.atproto.moderation.defs#reasonMisleading',
              'com.atproto.moderation.defs#reasonSexual',
              'com.atproto.moderation.defs#reasonRude',
              'com.atproto.moderation.defs#reasonOther',
              'com.atproto.moderation.defs#reasonAppeal',
            ],
          },
          reason: {
            type: 'string',
            maxLength: 20000,
            maxGraphemes: 2000,
          },
          reportedBy: {
            type: 'string',
            format: 'did',
            description:
              'Who reported; omitted when the caller is the reported person.',
          },
          createdAt: {
            type: 'string',
            format: 'datetime',
          },
        },
      },
      moderationEventView: {
        type: 'object',
        description:
          "One entry of a subject's moderation history: who did what, when.",
        required: ['id', 'event', 'createdAt'],
        properties: {
          id: {
            type: 'integer',
          },
          event: {
            type: 'string',
            description: 'What happened.',
            knownValues: [
              'report',
              'status',
              'eject',
              'comment',
              'acknowledge',
              'escalate',
              'resolve',
              'takedown',
              'reverseTakedown',
              'assign',
              'unassign',
            ],
          },
          note: {
            type: 'string',
            maxLength: 3000,
          },
          status: {
            type: 'string',
            description: 'For status: the new status.',
            knownValues: ['open', 'escalated', 'resolved'],
          },
          reasonType: {
            type: 'string',
            maxLength: 256,
            description: 'For report: its reason type.',
          },
          reason: {
            type: 'string',
            maxLength: 20000,
            description: 'For report: its text.',
          },
          ban: {
            type: 'boolean',
            description:
              'For eject and takedown of an account: whether a ban was set.',
          },
          createdBy: {
            type: 'string',
            format: 'did',
            description:
              'Who did it; for a report, omitted when the caller is the reported person.',
          },
          createdAt: {
            type: 'string',
            format: 'datetime',
          },
          assignedTo: {
            type: 'string',
            format: 'did',
            description:
              'For assign: who took the subject; for unassign: whose hold was released.',
          },
          endAt: {
            type: 'string',
            format: 'datetime',
            description: 'For assign: when the hold lapses.',
          },
        },
      },
    },
  },
  ExampleGroupsDeleteSpace: {
    lexicon: 1,
    id: 'example.groups.deleteSpace',
    description:
      'Delete a space and its index record (requires space.delete); not for meta or members.',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Delete a space and its index record (requires space.delete); not for meta or members.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'space'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              space: {
                type: 'string',
                description:
                  'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
                maxLength: 2048,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'SpaceNotFound',
          },
          {
            name: 'WellKnownSpace',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsEjectMember: {
    lexicon: 1,
    id: 'example.groups.ejectMember',
    description:
      'Remove a member from the group (requires eject; every role they hold must be assignable). With ban, they cannot ask to join or be invited again until the ban is lifted (unbanMember).',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Remove a member from the group (requires eject; every role they hold must be assignable). With ban, they cannot ask to join or be invited again until the ban is lifted (unbanMember).',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'did'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              did: {
                type: 'string',
                description: 'DID of the member.',
                format: 'did',
              },
              note: {
                type: 'string',
                description: 'Moderation note recorded with the eject event.',
                maxLength: 3000,
              },
              ban: {
                type: 'boolean',
                description:
                  'Also ban them: their requestJoin and invites are refused with Forbidden until someone holding eject lifts the ban with unbanMember.',
                default: false,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'NotAssignable',
          },
          {
            name: 'NotAMember',
          },
          {
            name: 'LastConfigurer',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsEmitModerationEvent: {
    lexicon: 1,
    id: 'example.groups.emitModerationEvent',
    description:
      'Act on a reported subject; every event is kept in its history with who and when.',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Act on a reported subject (requires mod.resolve; a takedown or its reversal of an account also requires eject). comment: a note only. acknowledge: seen, status unchanged. escalate, resolve: set the status. takedown: a record in a group space is no longer served to members (mod.read readers still see it, marked), an account is ejected and banned; the subject is resolved. reverseTakedown undoes either. assign: the caller takes the subject ("I\'m on it"): every moderator sees assignedTo on it until the caller resolves it (resolve, takedown), releases it (unassign), or 30 minutes pass; taking it again renews the 30 minutes, and a subject someone else has is AlreadyAssigned. unassign: releases whoever has it.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'subject', 'event'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              subject: {
                type: 'union',
                description: 'The moderation subject: an account or a record.',
                refs: [
                  'lex:example.groups.defs#subjectAccount',
                  'lex:example.groups.defs#subjectRecord',
                ],
              },
              event: {
                type: 'string',
                description: 'What to do.',
                knownValues: [
                  'comment',
                  'acknowledge',
                  'escalate',
                  'resolve',
                  'takedown',
                  'reverseTakedown',
                  'assign',
                  'unassign',
                ],
              },
              note: {
                type: 'string',
                description:
                  'Moderation note kept in the history (required for comment).',
                maxLength: 3000,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['subject'],
            properties: {
              subject: {
                type: 'ref',
                ref: 'lex:example.groups.defs#subject',
              },
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
          {
            name: 'SubjectNotFound',
          },
          {
            name: 'NotAssignable',
          },
          {
            name: 'LastConfigurer',
          },
          {
            name: 'AlreadyAssigned',
            description:
              'Another moderator has the subject (assignedTo); they or anyone with mod.resolve may unassign it first.',
          },
        ],
      },
    },
  },
  ExampleGroupsEventImage: {
    lexicon: 1,
    id: 'example.groups.eventImage',
    description:
      'An image for a group calendar event, written by the group (an uploaded blob or a link).',
    defs: {
      main: {
        type: 'record',
        description:
          'An image for a group calendar event, written by the group (an uploaded blob or a link).',
        key: 'tid',
        record: {
          type: 'object',
          required: ['createdAt'],
          properties: {
            image: {
              type: 'blob',
              accept: ['image/*'],
              maxSize: 1000000,
              description: 'The image as an uploaded blob.',
            },
            imageUrl: {
              type: 'string',
              description: 'The image as a link, when not uploaded as a blob.',
              format: 'uri',
            },
            alt: {
              type: 'string',
              description: 'Alt text for the image.',
              maxLength: 10000,
              maxGraphemes: 1000,
            },
            event: {
              type: 'string',
              description: 'at:// address of the event the image belongs to.',
              maxLength: 2048,
            },
            createdAt: {
              type: 'string',
              description: 'When the record was created.',
              format: 'datetime',
            },
          },
        },
      },
    },
  },
  ExampleGroupsGetGroup: {
    lexicon: 1,
    id: 'example.groups.getGroup',
    description:
      "Get a group's profile, join policy, roles, and the caller's roles and effective actions.",
    defs: {
      main: {
        type: 'query',
        description:
          "Get a group's profile, join policy, roles, and the caller's roles and effective actions.",
        parameters: {
          type: 'params',
          required: ['group'],
          properties: {
            group: {
              type: 'string',
              description: 'DID of the group the call is about.',
              format: 'did',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'ref',
            ref: 'lex:example.groups.defs#groupView',
          },
        },
        errors: [
          {
            name: 'NotHosted',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsGetGroupAuth: {
    lexicon: 1,
    id: 'example.groups.getGroupAuth',
    description:
      'Get a short-lived DPoP-bound credential for the group DID, scoped to one space.',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Get a short-lived DPoP-bound credential for the group DID, scoped to one space.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'space'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              space: {
                type: 'string',
                description:
                  'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
                maxLength: 2048,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          description: 'The group credential grant.',
          schema: {
            type: 'object',
            required: [
              'did',
              'accessJwt',
              'pds',
              'collections',
              'repoCollections',
              'scope',
              'expiresAt',
            ],
            properties: {
              did: {
                type: 'string',
                description: 'The group DID.',
                format: 'did',
              },
              accessJwt: {
                type: 'string',
                description:
                  'Access token bound to the DPoP key that signed the request proof.',
              },
              pds: {
                type: 'string',
                description: 'The group host, where the token is used.',
                format: 'uri',
              },
              collections: {
                type: 'array',
                description: 'Collections writable in the space.',
                items: {
                  type: 'string',
                },
              },
              repoCollections: {
                type: 'array',
                description: "Collections writable in the group's public repo.",
                items: {
                  type: 'string',
                },
              },
              scope: {
                type: 'string',
                description:
                  'Granted scope: atproto space:<space_type>?authority=<group_did>&skey=<skey>&collection=...&action=...',
              },
              expiresAt: {
                type: 'string',
                description: 'Expiry of the token (15 minutes after issue).',
                format: 'datetime',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'DpopRequired',
          },
          {
            name: 'InvalidDpop',
          },
          {
            name: 'SpaceNotFound',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsGetJoinRequest: {
    lexicon: 1,
    id: 'example.groups.getJoinRequest',
    description:
      "Get the caller's own pending join request in a group; absent once decided.",
    defs: {
      main: {
        type: 'query',
        description:
          "Get the caller's own pending join request in a group; absent once decided.",
        parameters: {
          type: 'params',
          required: ['group'],
          properties: {
            group: {
              type: 'string',
              description: 'DID of the group the call is about.',
              format: 'did',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              request: {
                type: 'ref',
                ref: 'lex:example.groups.defs#joinRequest',
              },
            },
          },
        },
        errors: [
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsGetSubject: {
    lexicon: 1,
    id: 'example.groups.getSubject',
    description:
      'One moderation subject with its reports and its history (requires mod.read).',
    defs: {
      main: {
        type: 'query',
        description:
          'One moderation subject with its reports and its history (requires mod.read). Reports and history come newest first; the cursor pages both.',
        parameters: {
          type: 'params',
          required: ['group', 'subject'],
          properties: {
            group: {
              type: 'string',
              description: 'DID of the group the call is about.',
              format: 'did',
            },
            subject: {
              type: 'string',
              description:
                "The subject's key: an account's DID or a record's at:// address.",
              maxLength: 2048,
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size, for reports and for history.',
            },
            cursor: {
              type: 'string',
              description: 'Opaque pagination cursor from a previous page.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['subject', 'reports', 'history'],
            properties: {
              subject: {
                type: 'ref',
                ref: 'lex:example.groups.defs#subject',
              },
              record: {
                type: 'unknown',
                description:
                  "For a record in one of the group's spaces whose space the caller's roles may read: its value as members were served it, taken down or not.",
              },
              recordWithheld: {
                type: 'boolean',
                description:
                  "Set when the subject is a record in one of the group's spaces that the caller's roles may not read (or in a space the group does not have): its content is withheld and record is left out; reports and history are still shown.",
              },
              reports: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.defs#reportView',
                },
              },
              history: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.defs#moderationEventView',
                },
              },
              cursor: {
                type: 'string',
                description: 'Opaque pagination cursor from a previous page.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
          {
            name: 'SubjectNotFound',
          },
        ],
      },
    },
  },
  ExampleGroupsGrantRole: {
    lexicon: 1,
    id: 'example.groups.grantRole',
    description:
      'Grant a role to a member (requires role.assign; the role must be assignable).',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Grant a role to a member (requires role.assign; the role must be assignable).',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'did', 'role'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              did: {
                type: 'string',
                description: 'DID of the member.',
                format: 'did',
              },
              role: {
                type: 'string',
                description: 'Role name, e.g. owner, admin, moderator, member.',
                maxLength: 64,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'NotAssignable',
          },
          {
            name: 'NotAMember',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsLeaveGroup: {
    lexicon: 1,
    id: 'example.groups.leaveGroup',
    description: 'Leave a group the caller is a member of.',
    defs: {
      main: {
        type: 'procedure',
        description: 'Leave a group the caller is a member of.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'NotAMember',
          },
          {
            name: 'LastConfigurer',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsListBans: {
    lexicon: 1,
    id: 'example.groups.listBans',
    description:
      'List the people banned from a group, newest first (requires eject).',
    defs: {
      main: {
        type: 'query',
        description:
          'List the people banned from a group, newest first (requires eject).',
        parameters: {
          type: 'params',
          required: ['group'],
          properties: {
            group: {
              type: 'string',
              description: 'DID of the group the call is about.',
              format: 'did',
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size.',
            },
            cursor: {
              type: 'string',
              description: 'Opaque pagination cursor from a previous page.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['bans'],
            properties: {
              bans: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.listBans#ban',
                },
              },
              cursor: {
                type: 'string',
                description: 'Opaque pagination cursor from a previous page.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
      ban: {
        type: 'object',
        required: ['did', 'createdBy', 'createdAt'],
        properties: {
          did: {
            type: 'string',
            format: 'did',
            description: 'The banned person.',
          },
          createdBy: {
            type: 'string',
            format: 'did',
            description: 'Who ejected and banned them.',
          },
          createdAt: {
            type: 'string',
            format: 'datetime',
          },
          note: {
            type: 'string',
            maxLength: 3000,
            description: 'The moderation note given with the eject, if any.',
          },
        },
      },
    },
  },
  ExampleGroupsListChanges: {
    lexicon: 1,
    id: 'example.groups.listChanges',
    description: 'Read the per-group change log from a cursor, oldest first.',
    defs: {
      main: {
        type: 'query',
        description:
          'Read the per-group change log from a cursor, oldest first.',
        parameters: {
          type: 'params',
          required: ['group'],
          properties: {
            group: {
              type: 'string',
              description: 'DID of the group the call is about.',
              format: 'did',
            },
            cursor: {
              type: 'string',
              description:
                'Opaque cursor from a previous call (or a subscribeChanges #change cursor for this group); omit to start from the oldest entry this host keeps. A host keeps its change log for a limited time: a cursor older than the oldest entry it keeps may have missed entries and is refused with InvalidRequest; then read the group whole and carry on with the cursor a call without one gives.',
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['changes', 'cursor'],
            properties: {
              changes: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.defs#change',
                },
              },
              cursor: {
                type: 'string',
                description:
                  'Cursor to pass next time; returned even when no changes are new.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
            description:
              'A malformed cursor, or one older than the change log this host keeps (entries after it may be gone): read the group whole, then carry on with the cursor a call without one gives.',
          },
        ],
      },
    },
  },
  ExampleGroupsListInvites: {
    lexicon: 1,
    id: 'example.groups.listInvites',
    description: 'List outstanding invites of a group (requires invite).',
    defs: {
      main: {
        type: 'query',
        description: 'List outstanding invites of a group (requires invite).',
        parameters: {
          type: 'params',
          required: ['group'],
          properties: {
            group: {
              type: 'string',
              description: 'DID of the group the call is about.',
              format: 'did',
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size.',
            },
            cursor: {
              type: 'string',
              description: 'Opaque pagination cursor from a previous page.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['invites'],
            properties: {
              invites: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.defs#invite',
                },
              },
              cursor: {
                type: 'string',
                description: 'Opaque pagination cursor from a previous page.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsListJoinRequests: {
    lexicon: 1,
    id: 'example.groups.listJoinRequests',
    description: 'List pending join requests of a group (requires admit).',
    defs: {
      main: {
        type: 'query',
        description: 'List pending join requests of a group (requires admit).',
        parameters: {
          type: 'params',
          required: ['group'],
          properties: {
            group: {
              type: 'string',
              description: 'DID of the group the call is about.',
              format: 'did',
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size.',
            },
            cursor: {
              type: 'string',
              description: 'Opaque pagination cursor from a previous page.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['requests'],
            properties: {
              requests: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.defs#joinRequest',
                },
              },
              cursor: {
                type: 'string',
                description: 'Opaque pagination cursor from a previous page.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsListMemberRecords: {
    lexicon: 1,
    id: 'example.groups.listMemberRecords',
    description:
      "List what every member wrote in a space, of one collection: for instance all RSVPs in the calendar space, or the RSVPs to one event (rkey = the event's rkey).",
    defs: {
      main: {
        type: 'query',
        description:
          'List what every member wrote in a space, of one collection, as the host last read it from their own PDS. Ordered by member DID, then rkey.',
        parameters: {
          type: 'params',
          required: ['space', 'collection'],
          properties: {
            space: {
              type: 'string',
              description:
                'Space address, at://<group_did>/space/<space_type>/<skey>.',
              maxLength: 2048,
            },
            collection: {
              type: 'string',
              description: 'NSID of the record collection.',
              format: 'nsid',
            },
            rkey: {
              type: 'string',
              description:
                "Only records with this key (an RSVP's key is its event's).",
              format: 'record-key',
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size.',
            },
            cursor: {
              type: 'string',
              description: 'Opaque pagination cursor from a previous page.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['records'],
            properties: {
              records: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.listMemberRecords#memberRecord',
                },
              },
              cursor: {
                type: 'string',
                description: 'Opaque pagination cursor from a previous page.',
              },
            },
          },
        },
        errors: [
          {
            name: 'InvalidRequest',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'SpaceNotFound',
          },
        ],
      },
      memberRecord: {
        type: 'object',
        description: "A member's record in a space.",
        required: ['uri', 'repo', 'value'],
        properties: {
          uri: {
            type: 'string',
            description: 'at:// address of the record.',
            maxLength: 2048,
          },
          repo: {
            type: 'string',
            description: 'DID of the member who wrote it.',
            format: 'did',
          },
          cid: {
            type: 'string',
            description: 'CID of the record.',
            format: 'cid',
          },
          value: {
            type: 'unknown',
            description: 'The record.',
          },
          takenDown: {
            type: 'boolean',
            description:
              "Set for readers holding mod.read: the group's moderators took this record down, so other members are not served it.",
          },
        },
      },
    },
  },
  ExampleGroupsListMembers: {
    lexicon: 1,
    id: 'example.groups.listMembers',
    description: 'List members of a group.',
    defs: {
      main: {
        type: 'query',
        description: 'List members of a group.',
        parameters: {
          type: 'params',
          required: ['group'],
          properties: {
            group: {
              type: 'string',
              description: 'DID of the group the call is about.',
              format: 'did',
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size.',
            },
            cursor: {
              type: 'string',
              description: 'Opaque pagination cursor from a previous page.',
            },
            q: {
              type: 'string',
              description:
                'Only members whose DID contains this text (case-insensitive). The host keeps no handles; clients resolve them.',
              maxLength: 256,
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['members'],
            properties: {
              members: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.defs#member',
                },
              },
              cursor: {
                type: 'string',
                description: 'Opaque pagination cursor from a previous page.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsListMyGroups: {
    lexicon: 1,
    id: 'example.groups.listMyGroups',
    description:
      'List the groups on this host where the caller holds a role, with their roles.',
    defs: {
      main: {
        type: 'query',
        description:
          'List the groups on this host where the caller holds a role, with their roles. Ordered by group DID.',
        parameters: {
          type: 'params',
          properties: {
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size.',
            },
            cursor: {
              type: 'string',
              description: 'Opaque pagination cursor from a previous page.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['groups'],
            properties: {
              groups: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.listMyGroups#myGroup',
                },
              },
              cursor: {
                type: 'string',
                description: 'Opaque pagination cursor from a previous page.',
              },
            },
          },
        },
        errors: [
          {
            name: 'InvalidRequest',
          },
        ],
      },
      myGroup: {
        type: 'object',
        description:
          "A group the caller belongs to, and the caller's standing in it.",
        required: [
          'did',
          'handle',
          'joinPolicy',
          'roles',
          'joinedAt',
          'accepted',
        ],
        properties: {
          did: {
            type: 'string',
            description: 'DID of the group.',
            format: 'did',
          },
          handle: {
            type: 'string',
            description:
              'Handle of the group as the host knows it; clients show it only once it resolves back to the DID.',
            format: 'handle',
          },
          displayName: {
            type: 'string',
            description: "The group's display name, if set.",
            maxLength: 640,
            maxGraphemes: 64,
          },
          joinPolicy: {
            type: 'string',
            description: 'How the group admits people.',
            knownValues: ['open', 'approval', 'invite'],
          },
          roles: {
            type: 'array',
            description: 'Roles the caller holds in the group.',
            items: {
              type: 'string',
              maxLength: 64,
            },
          },
          joinedAt: {
            type: 'string',
            description: 'When the caller was admitted.',
            format: 'datetime',
          },
          accepted: {
            type: 'boolean',
            description:
              "Whether the host has seen the caller's acceptance record.",
          },
        },
      },
    },
  },
  ExampleGroupsListSubjects: {
    lexicon: 1,
    id: 'example.groups.listSubjects',
    description: 'List moderation subjects of a group (requires mod.read).',
    defs: {
      main: {
        type: 'query',
        description: 'List moderation subjects of a group (requires mod.read).',
        parameters: {
          type: 'params',
          required: ['group'],
          properties: {
            group: {
              type: 'string',
              description: 'DID of the group the call is about.',
              format: 'did',
            },
            status: {
              type: 'string',
              description: 'Only subjects with this status, e.g. open.',
              knownValues: ['open', 'escalated', 'resolved'],
            },
            reasonType: {
              type: 'string',
              maxLength: 256,
              description:
                'Only subjects with at least one report of this reason type.',
              knownValues: [
                'com.atproto.moderation.defs#reasonSpam',
                'com.atproto.moderation.defs#reasonViolation',
                'com.atproto.moderation.defs#reasonMisleading',
                'com.atproto.moderation.defs#reasonSexual',
                'com.atproto.moderation.defs#reasonRude',
                'com.atproto.moderation.defs#reasonOther',
                'com.atproto.moderation.defs#reasonAppeal',
              ],
            },
            kind: {
              type: 'string',
              description: 'Only accounts or only records.',
              knownValues: ['account', 'record'],
            },
            sort: {
              type: 'string',
              description:
                'oldest (first report first, the default), mostReports (most distinct reporters first), newestReport (latest report first).',
              knownValues: ['oldest', 'mostReports', 'newestReport'],
              default: 'oldest',
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 50,
              description: 'Page size.',
            },
            cursor: {
              type: 'string',
              description: 'Opaque pagination cursor from a previous page.',
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['subjects'],
            properties: {
              subjects: {
                type: 'array',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.defs#subject',
                },
              },
              cursor: {
                type: 'string',
                description: 'Opaque pagination cursor from a previous page.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsNotifyWrite: {
    lexicon: 1,
    id: 'example.groups.notifyWrite',
    description:
      "Called by a member's own PDS after it stored (or deleted) the member's record in one of the group's spaces. Only a hint: the host reads the record back from the member's PDS, checks its CID, and counts (an acceptance marks the member as accepted) or keeps it to serve only what it found there. Not for apps: it is outside basePermissions.",
    defs: {
      main: {
        type: 'procedure',
        description:
          "Called by a member's own PDS after it stored (or deleted) the member's record in one of the group's spaces, with service auth it mints for the member (iss = repo). A hint only: the host reads the record at that address from the member's own PDS (service auth with the host's service DID as iss, lxm com.atproto.space.getRecord), checks that its CID matches its content, and makes its copy what the PDS holds: kept (served by com.atproto.space.listRecords/getRecord with repo = the member to readers of the space) if present, dropped if gone. An example.groups.acceptance with rkey self marks the member as accepted while it exists. Writes by non-members are refused with Forbidden and never kept, as are records in meta or in a space whose readableBy holds none of the member's roles; the host keeps a bounded number of records and bytes per member and space; the PDS keeps the record either way (spec section 3). Announcing the same write again changes nothing.",
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['space', 'repo', 'collection', 'rkey', 'action'],
            properties: {
              space: {
                type: 'string',
                description:
                  'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
                maxLength: 2048,
              },
              repo: {
                type: 'string',
                description:
                  "DID of the member who wrote; must be the token's issuer.",
                format: 'did',
              },
              collection: {
                type: 'string',
                description: 'NSID of the record collection.',
                format: 'nsid',
              },
              rkey: {
                type: 'string',
                description: 'Record key.',
                format: 'record-key',
                maxLength: 512,
              },
              cid: {
                type: 'string',
                description:
                  'CID of the stored record (absent for a delete). Informative: the host checks the CID of what the PDS serves.',
                format: 'cid',
              },
              action: {
                type: 'string',
                description:
                  'What the PDS did: put (created or overwrote) or delete. The host follows what the PDS holds, not this.',
                enum: ['put', 'delete'],
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['accepted'],
            properties: {
              accepted: {
                type: 'boolean',
                description:
                  "True: the announced write holds on the member's PDS (a put's record is there, checked; a delete's record is gone).",
              },
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'Forbidden',
            description:
              'Not a member, a token whose issuer is not repo, or a space where the host keeps nothing of this member: meta, or one whose readableBy holds none of their roles.',
          },
          {
            name: 'NotHosted',
          },
          {
            name: 'InvalidRequest',
            description:
              "Malformed input, the record could not be read from the member's PDS or did not match its CID, or keeping it would take the member past the records or bytes the host keeps of one member in one space.",
          },
          {
            name: 'SpaceNotFound',
            description: 'The group has no such space.',
          },
        ],
      },
    },
  },
  ExampleGroupsRequestJoin: {
    lexicon: 1,
    id: 'example.groups.requestJoin',
    description:
      'Ask to join a group; an outstanding invite for the caller is redeemed automatically.',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Ask to join a group; an outstanding invite for the caller is redeemed automatically.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              message: {
                type: 'string',
                description: 'Optional message to the group.',
                maxLength: 3000,
                maxGraphemes: 300,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['status'],
            properties: {
              status: {
                type: 'string',
                description:
                  'admitted if the caller is now a member, pending if a request awaits a decision.',
                knownValues: ['admitted', 'pending'],
              },
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'AlreadyMember',
          },
          {
            name: 'InviteRequired',
          },
          {
            name: 'InvalidRequest',
          },
          {
            name: 'NotHosted',
          },
        ],
      },
    },
  },
  ExampleGroupsRevokeInvite: {
    lexicon: 1,
    id: 'example.groups.revokeInvite',
    description: 'Revoke an outstanding invite (requires invite).',
    defs: {
      main: {
        type: 'procedure',
        description: 'Revoke an outstanding invite (requires invite).',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'invitee'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              invitee: {
                type: 'string',
                description: 'DID of the invited person.',
                format: 'did',
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'InviteNotFound',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsRevokeRole: {
    lexicon: 1,
    id: 'example.groups.revokeRole',
    description:
      'Revoke a role from a member (requires role.assign; the role must be assignable).',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Revoke a role from a member (requires role.assign; the role must be assignable).',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'did', 'role'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              did: {
                type: 'string',
                description: 'DID of the member.',
                format: 'did',
              },
              role: {
                type: 'string',
                description: 'Role name, e.g. owner, admin, moderator, member.',
                maxLength: 64,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'NotAssignable',
          },
          {
            name: 'NotAMember',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'LastConfigurer',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsRsvp: {
    lexicon: 1,
    id: 'example.groups.rsvp',
    description:
      "A member's RSVP to an event; its rkey equals the event's rkey, so a second write overwrites.",
    defs: {
      main: {
        type: 'record',
        description:
          "A member's RSVP to an event; its rkey equals the event's rkey, so a second write overwrites.",
        key: 'any',
        record: {
          type: 'object',
          required: ['subject', 'status'],
          properties: {
            subject: {
              type: 'string',
              description: 'at:// address of the event.',
              maxLength: 2048,
            },
            status: {
              type: 'string',
              description: 'Attendance answer.',
              knownValues: ['going', 'interested', 'notgoing'],
              default: 'going',
            },
            createdAt: {
              type: 'string',
              description: 'When the RSVP was made.',
              format: 'datetime',
            },
          },
        },
      },
    },
  },
  ExampleGroupsSpace: {
    lexicon: 1,
    id: 'example.groups.space',
    description:
      "The group's space index record (in the members space): one per space.",
    defs: {
      main: {
        type: 'record',
        description:
          "The group's space index record (in the members space): one per space.",
        key: 'any',
        record: {
          type: 'object',
          required: [
            'type',
            'skey',
            'name',
            'readableBy',
            'credentialScopes',
            'createdAt',
          ],
          properties: {
            type: {
              type: 'string',
              description: 'Space type.',
            },
            skey: {
              type: 'string',
              description: 'Space key; self for single-instance spaces.',
            },
            name: {
              type: 'string',
              description: 'Human-readable name of the space.',
              maxLength: 640,
              maxGraphemes: 64,
            },
            readableBy: {
              type: 'array',
              description: 'Roles that may read the space.',
              items: {
                type: 'string',
                maxLength: 64,
              },
            },
            credentialScopes: {
              type: 'array',
              description:
                'Per role, the collections a group credential may write in the space.',
              items: {
                type: 'ref',
                ref: 'lex:example.groups.defs#credentialScope',
              },
            },
            createdAt: {
              type: 'string',
              description: 'When the space was created.',
              format: 'datetime',
            },
          },
        },
      },
    },
  },
  ExampleGroupsSubscribeChanges: {
    lexicon: 1,
    id: 'example.groups.subscribeChanges',
    description:
      "A live stream of the change log of the caller's groups on this host, resumable from a cursor.",
    defs: {
      main: {
        type: 'subscription',
        description:
          "The change log of the caller's groups as it grows, over a WebSocket, in log order: each entry exactly as listChanges would give it to the caller, filtered by the caller's roles when it is sent (an entry a listChanges call at that moment would not show is not sent). Service auth with lxm = this method in the upgrade request's Authorization header. Without groups: every group on this host where the caller is a member, including groups joined while connected. Resumable: pass the cursor of the last #change received (or any listChanges cursor) and the stream sends what came after it, then goes live, with no gap and nothing twice.",
        parameters: {
          type: 'params',
          properties: {
            cursor: {
              type: 'string',
              description:
                "Opaque cursor: a #change's cursor, or a listChanges cursor. The stream starts after it (after the position it names in this host's whole change log; with cursors of several groups, pass the smallest and skip entries at or below a group's own). Omit to start with what happens next.",
            },
            groups: {
              type: 'array',
              description:
                "Only these groups (the caller must be a member of each). Omit for all the caller's groups on this host.",
              maxLength: 100,
              items: {
                type: 'string',
                format: 'did',
              },
            },
          },
        },
        message: {
          schema: {
            type: 'union',
            refs: [
              'lex:example.groups.subscribeChanges#change',
              'lex:example.groups.subscribeChanges#info',
            ],
          },
        },
        errors: [
          {
            name: 'FutureCursor',
            description:
              "The cursor is past the end of this host's change log: it did not come from this host.",
          },
          {
            name: 'ConsumerTooSlow',
            description:
              "The client did not read what was sent fast enough; the connection is closed. The error frame's cursor field (also in its message) is the cursor to resume from.",
          },
          {
            name: 'Forbidden',
            description:
              'The caller is not a member of a group named in groups.',
          },
          {
            name: 'NotHosted',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
      change: {
        type: 'object',
        description:
          'One change-log entry of one group: change is exactly the entry listChanges gives for it.',
        required: ['group', 'change', 'cursor'],
        properties: {
          group: {
            type: 'string',
            format: 'did',
            description: 'The group whose log the entry is in.',
          },
          change: {
            type: 'ref',
            ref: 'lex:example.groups.defs#change',
          },
          cursor: {
            type: 'string',
            description:
              "Where this entry stands: pass it as cursor to resume the stream after it. It is also a listChanges cursor for the entry's group.",
          },
        },
      },
      info: {
        type: 'object',
        description:
          'Something the client should know about the stream itself.',
        required: ['name'],
        properties: {
          name: {
            type: 'string',
            description:
              'OutdatedCursor: the cursor is older than the change log keeps; entries after it may be missing, so read each group whole (getGroup, lists) and carry on from the stream.',
            knownValues: ['OutdatedCursor'],
          },
          message: {
            type: 'string',
          },
        },
      },
    },
  },
  ExampleGroupsUnbanMember: {
    lexicon: 1,
    id: 'example.groups.unbanMember',
    description:
      'Lift a ban made by ejectMember with ban (requires eject). The person may then ask to join or be invited again.',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Lift a ban made by ejectMember with ban (requires eject). The person may then ask to join or be invited again.',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'did'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              did: {
                type: 'string',
                description: 'DID of the banned person.',
                format: 'did',
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'NotBanned',
            description: 'The person is not banned from this group.',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsUpdateSpace: {
    lexicon: 1,
    id: 'example.groups.updateSpace',
    description:
      "Change a space's name or access record (requires space.configure); not for meta or members.",
    defs: {
      main: {
        type: 'procedure',
        description:
          "Change a space's name or access record (requires space.configure); not for meta or members.",
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'space'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              space: {
                type: 'string',
                description:
                  'Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments.',
                maxLength: 2048,
              },
              name: {
                type: 'string',
                description: 'New name of the space.',
                maxLength: 640,
                maxGraphemes: 64,
              },
              readableBy: {
                type: 'array',
                description: 'Roles that may read the space.',
                items: {
                  type: 'string',
                  maxLength: 64,
                },
              },
              credentialScopes: {
                type: 'array',
                description:
                  'Per role, the collections a group credential may write in the space.',
                items: {
                  type: 'ref',
                  ref: 'lex:example.groups.defs#credentialScope',
                },
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'SpaceNotFound',
          },
          {
            name: 'WellKnownSpace',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
  ExampleGroupsUpdateSubject: {
    lexicon: 1,
    id: 'example.groups.updateSubject',
    description:
      'Change the moderation status of a subject (requires mod.resolve).',
    defs: {
      main: {
        type: 'procedure',
        description:
          'Change the moderation status of a subject (requires mod.resolve).',
        input: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            required: ['group', 'subject', 'status'],
            properties: {
              group: {
                type: 'string',
                description: 'DID of the group the call is about.',
                format: 'did',
              },
              subject: {
                type: 'union',
                description: 'The moderation subject: an account or a record.',
                refs: [
                  'lex:example.groups.defs#subjectAccount',
                  'lex:example.groups.defs#subjectRecord',
                ],
              },
              status: {
                type: 'string',
                description: 'New status.',
                knownValues: ['open', 'escalated', 'resolved'],
              },
              note: {
                type: 'string',
                description: 'Moderation note recorded with the status change.',
                maxLength: 3000,
              },
            },
          },
        },
        output: {
          encoding: 'application/json',
          schema: {
            type: 'object',
            properties: {
              seq: {
                type: 'integer',
                description:
                  'The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none.',
              },
            },
          },
        },
        errors: [
          {
            name: 'SubjectNotFound',
          },
          {
            name: 'Forbidden',
          },
          {
            name: 'InvalidRequest',
          },
        ],
      },
    },
  },
} as const satisfies Record<string, LexiconDoc>
export const schemas = Object.values(schemaDict) satisfies LexiconDoc[]
export const lexicons: Lexicons = new Lexicons(schemas)

export function validate<T extends { $type: string }>(
  v: unknown,
  id: string,
  hash: string,
  requiredType: true,
): ValidationResult<T>
export function validate<T extends { $type?: string }>(
  v: unknown,
  id: string,
  hash: string,
  requiredType?: false,
): ValidationResult<T>
export function validate(
  v: unknown,
  id: string,
  hash: string,
  requiredType?: boolean,
): ValidationResult {
  return (requiredType ? is$typed : maybe$typed)(v, id, hash)
    ? lexicons.validate(`${id}#${hash}`, v)
    : {
        success: false,
        error: new ValidationError(
          `Must be an object with "${hash === 'main' ? id : `${id}#${hash}`}" $type property`,
        ),
      }
}

export const ids = {
  ComAtprotoIdentityResolveHandle: 'com.atproto.identity.resolveHandle',
  ComAtprotoSpaceCreateRecord: 'com.atproto.space.createRecord',
  ComAtprotoSpaceDeleteRecord: 'com.atproto.space.deleteRecord',
  ComAtprotoSpaceGetRecord: 'com.atproto.space.getRecord',
  ComAtprotoSpaceListRecords: 'com.atproto.space.listRecords',
  ComAtprotoSpacePutRecord: 'com.atproto.space.putRecord',
  CommunityLexiconCalendarEvent: 'community.lexicon.calendar.event',
  ExampleGroupsAcceptance: 'example.groups.acceptance',
  ExampleGroupsAdmitMember: 'example.groups.admitMember',
  ExampleGroupsBasePermissions: 'example.groups.basePermissions',
  ExampleGroupsCalendarPermissions: 'example.groups.calendarPermissions',
  ExampleGroupsCancelJoinRequest: 'example.groups.cancelJoinRequest',
  ExampleGroupsConfigureGroup: 'example.groups.configureGroup',
  ExampleGroupsCreateGroup: 'example.groups.createGroup',
  ExampleGroupsCreateInvite: 'example.groups.createInvite',
  ExampleGroupsCreateReport: 'example.groups.createReport',
  ExampleGroupsCreateSpace: 'example.groups.createSpace',
  ExampleGroupsDefs: 'example.groups.defs',
  ExampleGroupsDeleteSpace: 'example.groups.deleteSpace',
  ExampleGroupsEjectMember: 'example.groups.ejectMember',
  ExampleGroupsEmitModerationEvent: 'example.groups.emitModerationEvent',
  ExampleGroupsEventImage: 'example.groups.eventImage',
  ExampleGroupsGetGroup: 'example.groups.getGroup',
  ExampleGroupsGetGroupAuth: 'example.groups.getGroupAuth',
  ExampleGroupsGetJoinRequest: 'example.groups.getJoinRequest',
  ExampleGroupsGetSubject: 'example.groups.getSubject',
  ExampleGroupsGrantRole: 'example.groups.grantRole',
  ExampleGroupsLeaveGroup: 'example.groups.leaveGroup',
  ExampleGroupsListBans: 'example.groups.listBans',
  ExampleGroupsListChanges: 'example.groups.listChanges',
  ExampleGroupsListInvites: 'example.groups.listInvites',
  ExampleGroupsListJoinRequests: 'example.groups.listJoinRequests',
  ExampleGroupsListMemberRecords: 'example.groups.listMemberRecords',
  ExampleGroupsListMembers: 'example.groups.listMembers',
  ExampleGroupsListMyGroups: 'example.groups.listMyGroups',
  ExampleGroupsListSubjects: 'example.groups.listSubjects',
  ExampleGroupsNotifyWrite: 'example.groups.notifyWrite',
  ExampleGroupsRequestJoin: 'example.groups.requestJoin',
  ExampleGroupsRevokeInvite: 'example.groups.revokeInvite',
  ExampleGroupsRevokeRole: 'example.groups.revokeRole',
  ExampleGroupsRsvp: 'example.groups.rsvp',
  ExampleGroupsSpace: 'example.groups.space',
  ExampleGroupsSubscribeChanges: 'example.groups.subscribeChanges',
  ExampleGroupsUnbanMember: 'example.groups.unbanMember',
  ExampleGroupsUpdateSpace: 'example.groups.updateSpace',
  ExampleGroupsUpdateSubject: 'example.groups.updateSubject',
} as const
