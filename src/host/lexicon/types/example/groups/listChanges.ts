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
  /** Opaque cursor from a previous call (or a subscribeChanges #change cursor for this group); omit to start from the oldest entry this host keeps. A host keeps its change log for a limited time: a cursor older than the oldest entry it keeps may have missed entries and is refused with InvalidRequest; then read the group whole and carry on with the cursor a call without one gives. */
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
