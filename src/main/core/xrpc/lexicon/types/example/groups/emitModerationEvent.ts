/**
 * GENERATED CODE - DO NOT MODIFY
 */
import { type HeadersMap, XRPCError } from '@atproto/xrpc'
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

export interface CallOptions {
  signal?: AbortSignal
  headers?: HeadersMap
  qp?: QueryParams
  encoding?: 'application/json'
}

export interface Response {
  success: boolean
  headers: HeadersMap
  data: OutputSchema
}

export class ForbiddenError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class InvalidRequestError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class SubjectNotFoundError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class NotAssignableError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class LastConfigurerError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class AlreadyAssignedError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export function toKnownErr(e: any) {
  if (e instanceof XRPCError) {
    if (e.error === 'Forbidden') return new ForbiddenError(e)
    if (e.error === 'InvalidRequest') return new InvalidRequestError(e)
    if (e.error === 'SubjectNotFound') return new SubjectNotFoundError(e)
    if (e.error === 'NotAssignable') return new NotAssignableError(e)
    if (e.error === 'LastConfigurer') return new LastConfigurerError(e)
    if (e.error === 'AlreadyAssigned') return new AlreadyAssignedError(e)
  }

  return e
}
