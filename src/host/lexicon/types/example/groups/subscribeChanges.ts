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
import { ErrorFrame } from '@atproto/xrpc-server'
import { IncomingMessage } from 'node:http'
import type * as ExampleGroupsDefs from './defs.js'

const is$typed = _is$typed,
  validate = _validate
const id = 'example.groups.subscribeChanges'

export type QueryParams = {
  /** Opaque cursor: a #change's cursor, or a listChanges cursor. The stream starts after it (after the position it names in this host's whole change log; with cursors of several groups, pass the smallest and skip entries at or below a group's own). Omit to start with what happens next. */
  cursor?: string
  /** Only these groups (the caller must be a member of each). Omit for all the caller's groups on this host. */
  groups?: string[]
}
export type OutputSchema = $Typed<Change> | $Typed<Info> | { $type: string }
export type HandlerError = ErrorFrame<
  | 'FutureCursor'
  | 'ConsumerTooSlow'
  | 'Forbidden'
  | 'NotHosted'
  | 'InvalidRequest'
>
export type HandlerOutput = HandlerError | OutputSchema

/** One change-log entry of one group: change is exactly the entry listChanges gives for it. */
export interface Change {
  $type?: 'example.groups.subscribeChanges#change'
  /** The group whose log the entry is in. */
  group: string
  change: ExampleGroupsDefs.Change
  /** Where this entry stands: pass it as cursor to resume the stream after it. It is also a listChanges cursor for the entry's group. */
  cursor: string
}

const hashChange = 'change'

export function isChange<V>(v: V) {
  return is$typed(v, id, hashChange)
}

export function validateChange<V>(v: V) {
  return validate<Change & V>(v, id, hashChange)
}

/** Something the client should know about the stream itself. */
export interface Info {
  $type?: 'example.groups.subscribeChanges#info'
  /** OutdatedCursor: the cursor is older than the change log keeps; entries after it may be missing, so read each group whole (getGroup, lists) and carry on from the stream. */
  name: 'OutdatedCursor' | (string & {})
  message?: string
}

const hashInfo = 'info'

export function isInfo<V>(v: V) {
  return is$typed(v, id, hashInfo)
}

export function validateInfo<V>(v: V) {
  return validate<Info & V>(v, id, hashInfo)
}
