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
const id = 'example.groups.notifyWrite'

export type QueryParams = {}

export interface InputSchema {
  /** Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments. */
  space: string
  /** DID of the member who wrote; must be the token's issuer. */
  repo: string
  /** NSID of the record collection. */
  collection: string
  /** Record key. */
  rkey: string
  /** CID of the stored record (absent for a delete). Informative: the host checks the CID of what the PDS serves. */
  cid?: string
  /** What the PDS did: put (created or overwrote) or delete. The host follows what the PDS holds, not this. */
  action: 'put' | 'delete'
}

export interface OutputSchema {
  /** True: the announced write holds on the member's PDS (a put's record is there, checked; a delete's record is gone). */
  accepted: boolean
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

export class NotHostedError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class InvalidRequestError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class SpaceNotFoundError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export function toKnownErr(e: any) {
  if (e instanceof XRPCError) {
    if (e.error === 'Forbidden') return new ForbiddenError(e)
    if (e.error === 'NotHosted') return new NotHostedError(e)
    if (e.error === 'InvalidRequest') return new InvalidRequestError(e)
    if (e.error === 'SpaceNotFound') return new SpaceNotFoundError(e)
  }

  return e
}
