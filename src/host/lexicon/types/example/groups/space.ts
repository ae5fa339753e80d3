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
const id = 'example.groups.space'

export interface Main {
  $type: 'example.groups.space'
  /** Space type. */
  type: string
  /** Space key; self for single-instance spaces. */
  skey: string
  /** Human-readable name of the space. */
  name: string
  /** Roles that may read the space. */
  readableBy: string[]
  /** Per role, the collections a group credential may write in the space. */
  credentialScopes: ExampleGroupsDefs.CredentialScope[]
  /** When the space was created. */
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
