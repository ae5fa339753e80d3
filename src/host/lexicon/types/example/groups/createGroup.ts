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
const id = 'example.groups.createGroup'

export type QueryParams = {}

export interface InputSchema {
  /** Handle for the new group. */
  handle: string
  /** Display name of the group. */
  displayName?: string
  /** Free-text description of the group. */
  description?: string
  /** How people join: open admits at once, approval creates a pending request, invite requires an invite. */
  joinPolicy: 'open' | 'approval' | 'invite' | (string & {})
}

export interface OutputSchema {
  /** DID of the new group. */
  did: string
  /** Handle of the new group. */
  handle: string
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
  error?: 'InvalidRequest'
}

export type HandlerOutput = HandlerError | HandlerSuccess
