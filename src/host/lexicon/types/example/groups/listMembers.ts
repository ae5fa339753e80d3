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
import type * as ExampleGroupsDefs from './defs.js'

const is$typed = _is$typed,
  validate = _validate
const id = 'example.groups.listMembers'

export type QueryParams = {
  /** DID of the group the call is about. */
  group: string
  /** Page size. */
  limit: number
  /** Opaque pagination cursor from a previous page. */
  cursor?: string
  /** Only members whose DID contains this text (case-insensitive). The host keeps no handles; clients resolve them. */
  q?: string
}
export type InputSchema = undefined

export interface OutputSchema {
  members: ExampleGroupsDefs.Member[]
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
  error?: 'Forbidden' | 'InvalidRequest'
}

export type HandlerOutput = HandlerError | HandlerSuccess
