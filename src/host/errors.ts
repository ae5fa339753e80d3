import { InvalidRequestError } from '@atproto/xrpc-server'

/** Error names of spec section 7 (the host answers them with 400). */
export type SpecErrorName =
  | 'AlreadyMember'
  | 'InviteRequired'
  | 'InviteNotFound'
  | 'RequestNotFound'
  | 'NotAMember'
  | 'NotAssignable'
  | 'LastConfigurer'
  | 'Forbidden'
  | 'NotHosted'
  | 'SpaceNotFound'
  | 'WellKnownSpace'
  | 'SubjectNotFound'
  | 'AlreadyAssigned'
  | 'DpopRequired'
  | 'InvalidDpop'
  | 'InvalidRequest'
  | 'RecordNotFound'
  | 'NotBanned'

/**
 * A refused call: HTTP 400 with `{error, message}` (spec section 7). `Forbidden` too is
 * a 400 here: the spec reserves 401 for bad service auth.
 */
export function refuse(error: SpecErrorName, message: string): InvalidRequestError {
  return new InvalidRequestError(message, error)
}
