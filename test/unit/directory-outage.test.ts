import { describe, expect, it } from 'vitest'
import { DidNotFoundError, PoorlyFormattedDidDocumentError } from '@atproto/identity'
import { isDirectoryOutage } from '../../src/host/identity/resolve-did.js'

const PLC = 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa'

describe('a failed DID resolution: the directory is down (503) or the DID is bad (401)', () => {
  it('counts an unreachable, slow, failing or throttling PLC as an outage', () => {
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' })
    for (const err of [new TypeError('fetch failed'), timeout, Object.assign(new Error('Bad Gateway'), { status: 502 }), Object.assign(new Error('Too Many Requests'), { status: 429 }), new SyntaxError('Unexpected token <')]) {
      expect(isDirectoryOutage(PLC, err), String(err)).toBe(true)
    }
  })

  it('counts the PLC’s answers about the DID as the DID’s problem', () => {
    for (const err of [new DidNotFoundError(PLC), new PoorlyFormattedDidDocumentError(PLC, {}), Object.assign(new Error('Gone'), { status: 410 }), Object.assign(new Error('Bad Request'), { status: 400 })]) {
      expect(isDirectoryOutage(PLC, err), String(err)).toBe(false)
    }
  })

  it('never counts a did:web as this host’s outage', () => {
    expect(isDirectoryOutage('did:web:example.com', new TypeError('fetch failed'))).toBe(false)
  })
})
