import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HostClient } from '../../src/main/core/xrpc/host-client'
import { ServiceAuthCache } from '../../src/main/core/xrpc/service-auth-cache'
import { XrpcCallError } from '../../src/main/core/xrpc/xrpc-error'
import { plainReason, retryLater, waitsForPerson } from '../../src/main/core/outbox/send-failures'
import { installLogSink } from '../../src/main/core/log/log'
import { memberWrite } from '../../src/main/core/calendar/member-writes'
import type { OAuthSession } from '@atproto/oauth-client'

/** A group host that accepts the connection and never answers. */
describe('a group host that does not answer', () => {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => void sockets.add(socket))
  let url: string
  installLogSink({ write: () => {} })
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
  })
  afterAll(async () => {
    installLogSink(null)
    for (const s of sockets) s.destroy()
    await new Promise((resolve) => server.close(resolve))
  })

  it('fails after the time limit as a transient failure, in plain words that say the change is kept', async () => {
    const auth = new ServiceAuthCache(async () => 'token')
    const client = new HostClient({ url, aud: 'did:web:host.test#groups' }, auth, fetch, 300)
    const started = Date.now()
    const err = await client.procedure('example.groups.admitMember', { group: 'did:plc:groupaaaaaaaaaaaaaaaaaaaa', did: 'did:plc:askeraaaaaaaaaaaaaaaaaaa', decision: 'deny' }).catch((e: unknown) => e)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(err).toBeInstanceOf(XrpcCallError)
    expect((err as XrpcCallError).error).toBe('HostNotAnswering')
    expect(retryLater(err)).toBe(true)
    expect(plainReason(err)).toBe('The group host is not answering. Your change is kept and will be sent when it answers.')
    expect(sockets.size).toBeGreaterThan(0)
  })

  it('a read in a sync is held no longer than the limit either', async () => {
    const client = new HostClient({ url, aud: 'did:web:host.test#groups' }, new ServiceAuthCache(async () => 'token'), fetch, 300)
    const err = await client.query('example.groups.getGroup', { group: 'did:plc:groupaaaaaaaaaaaaaaaaaaaa' }).catch((e: unknown) => e)
    expect((err as XrpcCallError).error).toBe('HostNotAnswering')
  })

  it('the person’s own server is held to a time limit too, and named as theirs, not the group host', async () => {
    process.env.CONVENE_SERVER_TIMEOUT_MS = '300'
    try {
      // A session whose server takes the connection and never answers.
      const session = { did: 'did:plc:memberaaaaaaaaaaaaaaaaaa', serverMetadata: { issuer: url }, fetchHandler: (path: string, init?: RequestInit) => fetch(new URL(path, url), init) } as unknown as OAuthSession
      const started = Date.now()
      const err = await memberWrite(session, 'com.atproto.space.putRecord', { space: 'ats://x', collection: 'community.lexicon.calendar.rsvp', rkey: 'self', record: {} }).catch((e: unknown) => e)
      expect(Date.now() - started).toBeLessThan(5_000)
      expect((err as XrpcCallError).error).toBe('ServerNotAnswering')
      expect(retryLater(err)).toBe(true)
      expect(plainReason(err)).toBe('Your account’s server is not answering. Your change is kept and will be sent when it answers.')
    } finally {
      delete process.env.CONVENE_SERVER_TIMEOUT_MS
    }
  })
})

describe('a member write the sign-in does not cover yet', () => {
  it('waits for the person (sign in again) instead of being refused, naming the scope', async () => {
    // An older sign-in, made before RSVPs were community.lexicon.calendar.rsvp: the PDS answers 403.
    const body = JSON.stringify({ error: 'ScopeMissingError', message: 'Missing required scope "repo:community.lexicon.calendar.rsvp?action=create"' })
    const session = {
      did: 'did:plc:memberaaaaaaaaaaaaaaaaaa',
      serverMetadata: { issuer: 'http://pds.test' },
      fetchHandler: async () => new Response(body, { status: 403, headers: { 'content-type': 'application/json' } }),
    } as unknown as OAuthSession
    const err = await memberWrite(session, 'com.atproto.space.putRecord', { space: 'ats://x', collection: 'community.lexicon.calendar.rsvp', rkey: 'self', record: {} }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'ScopeMissingError', data: { scope: 'repo:community.lexicon.calendar.rsvp?action=create' } })
    expect(retryLater(err)).toBe(true)
    expect(waitsForPerson(err)).toBe(true)
  })
})
