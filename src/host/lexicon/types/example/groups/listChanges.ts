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
const id = 'example.groups.listChanges'

export type QueryParams = {
  /** DID of the group the call is about. */
  group: string
  /** Opaque cursor from a previous call; omit to start from the beginning. */
  cursor?: string
  /** Page size. */
  limit: number
}
export type InputSchema = undefined

export interface OutputSchema {
  changes: ExampleGroupsDefs.Change[]
  /** Cursor to pass next time; returned even when no changes are new. */
  cursor: string
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
