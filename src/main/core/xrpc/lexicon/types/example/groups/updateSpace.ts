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
const id = 'example.groups.updateSpace'

export type QueryParams = {}

export interface InputSchema {
  /** DID of the group the call is about. */
  group: string
  /** Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments. */
  space: string
  /** New name of the space. */
  name?: string
  /** Roles that may read the space. */
  readableBy?: string[]
  /** Per role, the collections a group credential may write in the space. */
  credentialScopes?: ExampleGroupsDefs.CredentialScope[]
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

export class SpaceNotFoundError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class WellKnownSpaceError extends XRPCError {
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
    if (e.error === 'SpaceNotFound') return new SpaceNotFoundError(e)
    if (e.error === 'WellKnownSpace') return new WellKnownSpaceError(e)
    if (e.error === 'Forbidden') return new ForbiddenError(e)
    if (e.error === 'InvalidRequest') return new InvalidRequestError(e)
  }

  return e
}
