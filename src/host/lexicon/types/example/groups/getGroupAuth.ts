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
const id = 'example.groups.getGroupAuth'

export type QueryParams = {}

export interface InputSchema {
  /** DID of the group the call is about. */
  group: string
  /** Space address, at://<group_did>/space/<space_type>/<skey>. Not format at-uri: @atproto/syntax allows at most two path segments. */
  space: string
}

export interface OutputSchema {
  /** The group DID. */
  did: string
  /** Access token bound to the DPoP key that signed the request proof. */
  accessJwt: string
  /** The group host, where the token is used. */
  pds: string
  /** Collections writable in the space. */
  collections: string[]
  /** Collections writable in the group's public repo. */
  repoCollections: string[]
  /** Granted scope: atproto space:<space_type>?authority=<group_did>&skey=<skey>&collection=...&action=... */
  scope: string
  /** Expiry of the token (15 minutes after issue). */
  expiresAt: string
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
  error?:
    | 'Forbidden'
    | 'DpopRequired'
    | 'InvalidDpop'
    | 'SpaceNotFound'
    | 'InvalidRequest'
}

export type HandlerOutput = HandlerError | HandlerSuccess
