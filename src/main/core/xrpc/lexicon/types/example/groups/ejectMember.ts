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

const is$typed = _is$typed,
  validate = _validate
const id = 'example.groups.ejectMember'

export type QueryParams = {}

export interface InputSchema {
  /** DID of the group the call is about. */
  group: string
  /** DID of the member. */
  did: string
  /** Moderation note recorded with the eject event. */
  note?: string
  /** Also ban them: their requestJoin and invites are refused with Forbidden until someone holding eject lifts the ban with unbanMember. */
  ban?: boolean
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

export class NotAssignableError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class NotAMemberError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class LastConfigurerError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
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
    if (e.error === 'NotAssignable') return new NotAssignableError(e)
    if (e.error === 'NotAMember') return new NotAMemberError(e)
    if (e.error === 'LastConfigurer') return new LastConfigurerError(e)
    if (e.error === 'Forbidden') return new ForbiddenError(e)
    if (e.error === 'InvalidRequest') return new InvalidRequestError(e)
  }

  return e
}
