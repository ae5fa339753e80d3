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
  error?: 'Forbidden' | 'NotHosted' | 'InvalidRequest' | 'SpaceNotFound'
}

export type HandlerOutput = HandlerError | HandlerSuccess
