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
const id = 'example.groups.createInvite'

export type QueryParams = {}

export interface InputSchema {
  /** DID of the group the call is about. */
  group: string
  /** DID of the person to invite. */
  invitee: string
  /** Optional message to the invitee. */
  message?: string
}

export interface OutputSchema {
  /** Address of the invite: an at:// address, or pending:<did> when the invitee cannot be reached yet (their DID does not resolve, so they have no invites space); either way the invite redeems when they ask to join. */
  uri: string
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
  error?: 'Forbidden' | 'AlreadyMember' | 'InvalidRequest'
}

export type HandlerOutput = HandlerError | HandlerSuccess
