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

const is$typed = _is$typed,
  validate = _validate
const id = 'example.groups.listMemberRecords'

export type QueryParams = {
  /** Space address, at://<group_did>/space/<space_type>/<skey>. */
  space: string
  /** NSID of the record collection. */
  collection: string
  /** Only records with this key (an RSVP's key is its event's). */
  rkey?: string
  /** Page size. */
  limit: number
  /** Opaque pagination cursor from a previous page. */
  cursor?: string
}
export type InputSchema = undefined

export interface OutputSchema {
  records: MemberRecord[]
  /** Opaque pagination cursor from a previous page. */
  cursor?: string
}

export type HandlerInput = void

export interface HandlerSuccess {
  encoding: 'application/json'
  body: OutputSchema
  headers?: { [key: string]: string }
}

export interface HandlerError {
  status: number
  message?: string
  error?: 'InvalidRequest' | 'Forbidden' | 'SpaceNotFound'
}

export type HandlerOutput = HandlerError | HandlerSuccess

/** A member's record in a space. */
export interface MemberRecord {
  $type?: 'example.groups.listMemberRecords#memberRecord'
  /** at:// address of the record. */
  uri: string
  /** DID of the member who wrote it. */
  repo: string
  /** CID of the record. */
  cid?: string
  /** The record. */
  value: { [_ in string]: unknown }
  /** Set for readers holding mod.read: the group's moderators took this record down, so other members are not served it. */
  takenDown?: boolean
}

const hashMemberRecord = 'memberRecord'

export function isMemberRecord<V>(v: V) {
  return is$typed(v, id, hashMemberRecord)
}

export function validateMemberRecord<V>(v: V) {
  return validate<MemberRecord & V>(v, id, hashMemberRecord)
}
