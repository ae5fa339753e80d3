import { causeChain, fetchFailure } from '../../node/fetch-failure.js'

/** Thrown by the sign-in's identity resolution (upstream-identity.ts) for a DID with no document. */
export class NoAccountError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NoAccountError'
  }
}

/**
 * Which step of finding a person's account and server failed when they typed their
 * handle into the group sign-in, in the few kinds a person can act on.
 */
export type SignInFailure = 'no-account' | 'unreachable' | 'refused-address' | 'not-understood'

/**
 * Sorts what the host's sign-in client threw. A failed request says first why
 * (src/node/fetch-failure.ts); else a handle or DID that names no account is said so
 * (the atproto identity resolver's IdentityResolverError, or ours); anything else came
 * from an answer the client could not use (metadata that is not OAuth metadata, a PAR
 * refused, …).
 */
export function signInFailure(err: unknown): SignInFailure {
  switch (fetchFailure(err)) {
    case 'refused':
      return 'refused-address'
    case 'timeout':
    case 'unreachable':
      return 'unreachable'
    case 'refused-redirect':
    case 'too-large':
      return 'not-understood'
  }
  const noAccount = causeChain(err).some((e) => e instanceof NoAccountError || (e instanceof Error && e.name === 'IdentityResolverError'))
  return noAccount ? 'no-account' : 'not-understood'
}

/**
 * What the sign-in page says, in plain words: which step failed, and nothing of how
 * (no addresses, no error text from elsewhere).
 */
export function signInFailureWords(failure: SignInFailure, typed: string): string {
  switch (failure) {
    case 'no-account':
      return `No account was found for ${typed}. Check the handle.`
    case 'unreachable':
      return `The server of ${typed} could not be reached in time. Try again later.`
    case 'refused-address':
      return `The server of ${typed} is at an address this group host does not contact.`
    case 'not-understood':
      return `The server of ${typed} answered in a way this group host does not understand, so you cannot sign in with it here.`
  }
}
