import { describe, expect, it } from 'vitest'
import type { IdResolver } from '@atproto/identity'
import { walkInResolver } from '../../src/main/core/people/walk-in-lookup'
import { retryLater } from '../../src/main/core/outbox/send-failures'

/**
 * A door walk-in's handle, looked up when its check-in is sent: the person's DID when the
 * handle checks out both ways, a plain refusal when it names no one, "try again later"
 * when no directory answered.
 */
const SAM = 'did:plc:sam'
const docs: Record<string, { alsoKnownAs?: string[] } | null> = { [SAM]: { alsoKnownAs: ['at://sam.example.com'] }, 'did:plc:other': { alsoKnownAs: ['at://other.example.com'] } }
const idResolver = (down = false) => ({ did: { resolve: async (did: string) => (down ? Promise.reject(new Error('offline')) : (docs[did] ?? null)) } }) as unknown as IdResolver
const handles: Record<string, string> = { 'sam.example.com': SAM, 'claims-sam.example.com': 'did:plc:other', 'other.example.com': 'did:plc:other' }

const lookUp = (opts: { offline?: boolean; directoryDown?: boolean } = {}) =>
  walkInResolver({
    idResolver: idResolver(opts.directoryDown),
    lookUpHandle: async (h) => {
      if (opts.offline) throw new Error('no directory answered')
      return handles[h] ?? null
    },
  })

describe('a walk-in’s handle, looked up when sent', () => {
  it('is the person’s DID when the handle names them and their document claims it back', async () => {
    await expect(lookUp()('sam.example.com')).resolves.toBe(SAM)
  })

  it('names no one: refused in plain words, not tried again', async () => {
    const err = await lookUp()('nobody.example.com').catch((e: unknown) => e)
    expect((err as Error).message).toBe('No one has the handle @nobody.example.com: the walk-in was not recorded.')
    expect(retryLater(err)).toBe(false)
    // A handle pointing at someone whose document names another handle is not theirs.
    await expect(lookUp()('claims-sam.example.com')).rejects.toThrow('No one has the handle @claims-sam.example.com')
  })

  it('with no directory answering (the network gone) is kept and tried again', async () => {
    for (const err of [await lookUp({ offline: true })('sam.example.com').catch((e: unknown) => e), await lookUp({ directoryDown: true })('sam.example.com').catch((e: unknown) => e)]) {
      expect((err as Error).message).toContain('Could not look up @sam.example.com just now')
      expect(retryLater(err)).toBe(true)
    }
  })
})
