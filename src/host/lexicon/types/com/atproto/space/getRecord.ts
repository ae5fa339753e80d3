/**
 * GENERATED CODE - DO NOT MODIFY
 */
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
const id = 'com.atproto.space.getRecord'

export type QueryParams = {
  /** Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments. */
  space: string
  /** DID of the repo written to: the member for member writes, the group for group writes. */
  repo: string
  /** NSID of the record collection. */
  collection: string
  /** Record key. */
  rkey: string
}
export type InputSchema = undefined

export interface OutputSchema {
  /** at:// address of the record. */
  uri: string
  /** CID of the record. */
  cid?: string
  /** The record. */
  value: { [_ in string]: unknown }
  /** Set for readers holding mod.read: the group's moderators took this record down, so other members are not served it. */
  takenDown?: boolean
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
  error?: 'RecordNotFound' | 'InvalidRequest' | 'Forbidden' | 'SpaceNotFound'
}

export type HandlerOutput = HandlerError | HandlerSuccess
