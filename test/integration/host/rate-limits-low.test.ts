import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../../support/local-network.js'

// Low limits, so each is met in a few calls; the defaults (3,000 and 10,000 an hour) are
// shown by test/unit/host-rate-limits.test.ts and, for createGroup, rate-limits.test.ts.
const net = useLocalNetwork({ hostRateLimits: 'procedures=4,queries=5,unauthenticated=6', ownIdentity: true })

/** A well-formed did:plc that no one has made. */
const madeUpDid = () => `did:plc:${[...randomBytes(24)].map((b) => 'abcdefghijklmnopqrstuvwxyz234567'[b % 32]).join('')}`

describe('rate limits per account, group and address', () => {
  it('limits queries per account', async () => {
    const member = net.as('member')
    const group = net.group('open').did
    for (let i = 0; i < 5; i++) expect((await member.call('example.groups.getGroup', { params: { group } })).status).toBe(200)
    const refused = await member.call('example.groups.listMembers', { params: { group } })
    expect(refused).toMatchObject({ status: 429, body: { error: 'RateLimitExceeded' } })
    expect(refused.body.message).toMatch(/^Too many queries: this host allows 5 an hour per account/)
    expect(refused.headers.get('ratelimit-limit')).toBe('5')
    // Another account is not affected.
    expect((await net.as('moderator').call('example.groups.getGroup', { params: { group } })).status).toBe(200)
  })

  it('limits other procedures per account and group', async () => {
    const owner = net.as('owner')
    const open = net.group('open').did
    for (let i = 0; i < 4; i++) {
      expect((await owner.call('example.groups.configureGroup', { body: { group: open, description: `take ${i}` } })).status).toBe(200)
    }
    const refused = await owner.call('example.groups.configureGroup', { body: { group: open, description: 'one too many' } })
    expect(refused).toMatchObject({ status: 429, body: { error: 'RateLimitExceeded' } })
    expect(refused.body.message).toMatch(/^Too many changes to this group: this host allows 4 an hour per account and group/)
    // The same account in another group is not affected.
    expect((await owner.call('example.groups.configureGroup', { body: { group: net.group('approval').did, description: 'fine' } })).status).toBe(200)
  })

  it('counts an account\'s calls naming groups not hosted here together: made-up group DIDs open no fresh allowance (issue 22)', async () => {
    const outsider = net.as('outsider')
    const answers = []
    for (let i = 0; i < 10; i++) answers.push(await outsider.call('example.groups.requestJoin', { body: { group: madeUpDid() } }))
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 429, 429, 429, 429, 429, 429])
    expect(answers[0]!.body.error).toBe('InvalidRequest')
    expect(answers.map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['3', '2', '1', '0', '0', '0', '0', '0', '0', '0'])
    expect(answers[4]!.body.message).toMatch(/^Too many calls naming no group hosted here: this host allows 4 an hour per account\./)
    // A group hosted here still has its own allowance.
    expect(await outsider.call('example.groups.requestJoin', { body: { group: net.group('approval').did } })).toMatchObject({ status: 200, body: { status: 'pending' } })
  })

  it('asks the PLC once about a group DID that does not exist, however often it is named (issue 22)', async () => {
    const did = madeUpDid()
    for (let i = 0; i < 3; i++) {
      expect(await net.as('outsider2').call('example.groups.requestJoin', { body: { group: did } })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    }
    expect(net.running.plcLookups(did)).toBe(1)
  })

  it('limits requests without valid credentials per address; failed tokens count, and then nothing from it gets through', async () => {
    const host = net.stack.host.url
    // The authenticated calls above (some refused with 429) did not count. Two refused
    // tokens (401s)…
    for (let i = 0; i < 2; i++) {
      const res = await xrpc(host, 'example.groups.getGroup', { params: { group: net.group('open').did }, headers: { authorization: 'Bearer not-a-token' } })
      expect(res.status).toBe(401)
    }
    // …two calls with junk credentials where none are needed (still unauthenticated)…
    for (let i = 0; i < 2; i++) {
      const res = await xrpc(host, 'com.atproto.identity.resolveHandle', { params: { handle: 'open.groups.test' }, headers: { authorization: 'Bearer junk' } })
      expect(res.status).toBe(200)
    }
    // …and two without credentials use up the six.
    for (let i = 0; i < 2; i++) {
      expect((await xrpc(host, 'com.atproto.identity.resolveHandle', { params: { handle: 'open.groups.test' } })).status).toBe(200)
    }
    const refused = await xrpc(host, 'com.atproto.identity.resolveHandle', { params: { handle: 'open.groups.test' } })
    expect(refused).toMatchObject({ status: 429, body: { error: 'RateLimitExceeded' } })
    expect(refused.body.message).toMatch(/^Too many requests without valid credentials from your network: this host allows 6 an hour/)
    expect(refused.headers.get('ratelimit-limit')).toBe('6')
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    expect(Number(refused.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // A well-formed token from the same address is refused before it is even checked.
    expect((await net.as('admin').call('example.groups.getGroup', { params: { group: net.group('open').did } })).status).toBe(429)
  })
})
