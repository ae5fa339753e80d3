import { describe, expect, it } from 'vitest'
import { ERROR_MESSAGES, plainMessage } from '../../src/shared/errors.js'

// Spec section 7, plus the PDS's ScopeMissingError.
const SPEC_ERRORS = [
  'AlreadyMember', 'InviteRequired', 'InviteNotFound', 'RequestNotFound', 'NotAMember', 'NotAssignable',
  'LastConfigurer', 'Forbidden', 'NotHosted', 'SpaceNotFound', 'WellKnownSpace', 'SubjectNotFound',
  'DpopRequired', 'InvalidDpop', 'InvalidRequest', 'ScopeMissingError',
]

describe('plain-language errors', () => {
  it.each(SPEC_ERRORS)('%s has a message for people', (name) => {
    const message = ERROR_MESSAGES[name]
    expect(message).toBeTruthy()
    // Written for people: a sentence, not the error's name or a code.
    expect(message).not.toContain(name)
    expect(message).toMatch(/[.!]$/)
  })

  it('falls back to the server’s message, then to a generic one', () => {
    expect(plainMessage('SomethingNew', 'The host said so')).toBe('The host said so')
    expect(plainMessage('SomethingNew')).toBe('Something went wrong.')
  })
})
