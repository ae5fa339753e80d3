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
const id = 'example.groups.listMyGroups'

export type QueryParams = {
  /** Page size. */
  limit?: number
  /** Opaque pagination cursor from a previous page. */
  cursor?: string
}
export type InputSchema = undefined

export interface OutputSchema {
  groups: MyGroup[]
  /** Opaque pagination cursor from a previous page. */
  cursor?: string
}

export interface CallOptions {
  signal?: AbortSignal
  headers?: HeadersMap
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

export function toKnownErr(e: any) {
  if (e instanceof XRPCError) {
    if (e.error === 'InvalidRequest') return new InvalidRequestError(e)
  }

  return e
}

/** A group the caller belongs to, and the caller's standing in it. */
export interface MyGroup {
  $type?: 'example.groups.listMyGroups#myGroup'
  /** DID of the group. */
  did: string
  /** Handle of the group as the host knows it; clients show it only once it resolves back to the DID. */
  handle: string
  /** The group's display name, if set. */
  displayName?: string
  /** How the group admits people. */
  joinPolicy: 'open' | 'approval' | 'invite' | (string & {})
  /** Roles the caller holds in the group. */
  roles: string[]
  /** When the caller was admitted. */
  joinedAt: string
  /** Whether the host has seen the caller's acceptance record. */
  accepted: boolean
}

const hashMyGroup = 'myGroup'

export function isMyGroup<V>(v: V) {
  return is$typed(v, id, hashMyGroup)
}

export function validateMyGroup<V>(v: V) {
  return validate<MyGroup & V>(v, id, hashMyGroup)
}
