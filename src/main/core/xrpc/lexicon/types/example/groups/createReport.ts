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
const id = 'example.groups.createReport'

export type QueryParams = {}

export interface InputSchema {
  /** DID of the group the call is about. */
  group: string
  subject:
    | $Typed<ExampleGroupsDefs.SubjectAccount>
    | $Typed<ExampleGroupsDefs.SubjectRecord>
    | { $type: string }
  /** Kind of problem: one of atproto's reason types (com.atproto.moderation.defs#reason*). Other non-blank values are kept as given, for older clients. */
  reasonType:
    | 'com.atproto.moderation.defs#reasonSpam'
    | 'com.atproto.moderation.defs#reasonViolation'
    | 'com.atproto.moderation.defs#reasonMisleading'
    | 'com.atproto.moderation.defs#reasonSexual'
    | 'com.atproto.moderation.defs#reasonRude'
    | 'com.atproto.moderation.defs#reasonOther'
    | 'com.atproto.moderation.defs#reasonAppeal'
    | (string & {})
  /** Free-text explanation, shown to the group's moderators. */
  reason?: string
  /** Chosen by the reporter's client for this report; the same reporter sending the same key again (a retry after a lost answer) is taken as the one report already made. */
  idempotencyKey?: string
}

export interface OutputSchema {
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

export function toKnownErr(e: any) {
  if (e instanceof XRPCError) {
    if (e.error === 'Forbidden') return new ForbiddenError(e)
    if (e.error === 'InvalidRequest') return new InvalidRequestError(e)
  }

  return e
}
