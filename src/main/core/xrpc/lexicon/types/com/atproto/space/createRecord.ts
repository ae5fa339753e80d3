/**
 * GENERATED CODE - DO NOT MODIFY
 */
import { type HeadersMap, XRPCError } from '@atproto/xrpc'
import { type ValidationResult, BlobRef } from '@atproto/lexicon'
import { CID } from 'multiformats/cid'
import { validate as _validate } from '../../../../lexicons.js'
import {
  type $Typed,
  is$typed as _is$typed,
  type OmitKey,
} from '../../../../util.js'

const is$typed = _is$typed,
  validate = _validate
const id = 'com.atproto.space.createRecord'

export type QueryParams = {}

export interface InputSchema {
  /** Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments. */
  space: string
  /** DID of the repo written to: the member for member writes, the group for group writes. */
  repo: string
  /** NSID of the record collection. */
  collection: string
  /** Record key; assigned by the host when absent. */
  rkey?: string
  /** The record; its $type equals the collection. */
  record: { [_ in string]: unknown }
}

export interface OutputSchema {
  /** at:// address of the record. */
  uri: string
  /** CID of the record. */
  cid: string
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

export class InvalidRequestError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class ForbiddenError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class SpaceNotFoundError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class DpopRequiredError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export class InvalidDpopError extends XRPCError {
  constructor(src: XRPCError) {
    super(src.status, src.error, src.message, src.headers, { cause: src })
  }
}

export function toKnownErr(e: any) {
  if (e instanceof XRPCError) {
    if (e.error === 'InvalidRequest') return new InvalidRequestError(e)
    if (e.error === 'Forbidden') return new ForbiddenError(e)
    if (e.error === 'SpaceNotFound') return new SpaceNotFoundError(e)
    if (e.error === 'DpopRequired') return new DpopRequiredError(e)
    if (e.error === 'InvalidDpop') return new InvalidDpopError(e)
  }

  return e
}
