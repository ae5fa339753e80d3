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
const id = 'example.groups.getSubject'

export type QueryParams = {
  /** DID of the group the call is about. */
  group: string
  /** The subject's key: an account's DID or a record's at:// address. */
  subject: string
  /** Page size, for reports and for history. */
  limit: number
  /** Opaque pagination cursor from a previous page. */
  cursor?: string
}
export type InputSchema = undefined

export interface OutputSchema {
  subject: ExampleGroupsDefs.Subject
  /** For a record in one of the group's spaces whose space the caller's roles may read: its value as members were served it, taken down or not. */
  record?: { [_ in string]: unknown }
  /** Set when the subject is a record in one of the group's spaces that the caller's roles may not read (or in a space the group does not have): its content is withheld and record is left out; reports and history are still shown. */
  recordWithheld?: boolean
  reports: ExampleGroupsDefs.ReportView[]
  history: ExampleGroupsDefs.ModerationEventView[]
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
  error?: 'Forbidden' | 'InvalidRequest' | 'SubjectNotFound'
}

export type HandlerOutput = HandlerError | HandlerSuccess
