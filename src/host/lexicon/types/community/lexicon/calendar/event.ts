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
const id = 'community.lexicon.calendar.event'

export interface Main {
  $type: 'community.lexicon.calendar.event'
  /** Name of the event. */
  name: string
  /** When the event starts. */
  startsAt: string
  /** When the event ends. */
  endsAt?: string
  /** Description of the event. */
  description?: string
  /** Where the event takes place, as free text. */
  location?: string
  /** When the record was created. */
  createdAt: string
  [k: string]: unknown
}

const hashMain = 'main'

export function isMain<V>(v: V) {
  return is$typed(v, id, hashMain)
}

export function validateMain<V>(v: V) {
  return validate<Main & V>(v, id, hashMain, true)
}

export {
  type Main as Record,
  isMain as isRecord,
  validateMain as validateRecord,
}
