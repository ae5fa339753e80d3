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
import type * as ExampleGroupsDefs from './defs.js'

const is$typed = _is$typed,
  validate = _validate
const id = 'example.groups.emitModerationEvent'

export type QueryParams = {}

export interface InputSchema {
  /** DID of the group the call is about. */
  group: string
  subject:
    | $Typed<ExampleGroupsDefs.SubjectAccount>
    | $Typed<ExampleGroupsDefs.SubjectRecord>
    | { $type: string }
  /** What to do. */
  event:
    | 'comment'
    | 'acknowledge'
    | 'escalate'
    | 'resolve'
    | 'takedown'
    | 'reverseTakedown'
    | 'assign'
    | 'unassign'
    | (string & {})
  /** Moderation note kept in the history (required for comment). */
  note?: string
}

export interface OutputSchema {
  subject: ExampleGroupsDefs.Subject
  /** The change-log position (listChanges seq) of the last change this call recorded; absent when it recorded none. */
  seq?: number
}

export interface HandlerInput {
  encoding: 'application/json'
  body: InputSchema
}

export interface HandlerSuccess {
  encoding: 'application/json'
  body: OutputSchema
  headers?: { [key: string]: string }
}

export interface HandlerError {
  status: number
  message?: string
  error?:
    | 'Forbidden'
    | 'InvalidRequest'
    | 'SubjectNotFound'
    | 'NotAssignable'
    | 'LastConfigurer'
    | 'AlreadyAssigned'
}

export type HandlerOutput = HandlerError | HandlerSuccess
