import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { MAX_SPACES_PER_GROUP } from '../../../src/host/spaces/space-admin.js'

/**
 * Spaces one group may have (issue 35 point 3): anyone may make a group and is its owner,
 * so the spaces an owner can make the host keep are bounded. Run on both stores.
 */
const net = useLocalNetwork()

const create = (group: string, type: string) =>
  net.as('outsider').call<{ uri?: string; error?: string; message?: string }>('example.groups.createSpace', {
    body: { group, type, skey: 'self', name: type, readableBy: ['owner'], credentialScopes: [] },
  })

describe('spaces per group', () => {
  it(`refuses a group's space past ${MAX_SPACES_PER_GROUP} (the well-known two counted) with a 429 naming no time, even when many are asked at once`, async () => {
    const made = await net.as('outsider').call<{ did: string }>('example.groups.createGroup', { body: { handle: `spaces${Date.now().toString(36)}.groups.test`, joinPolicy: 'invite' } })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const group = made.body.did
    // All but the last few places, a batch at a time; then the last ones raced by more callers than places.
    const room = MAX_SPACES_PER_GROUP - 2
    for (let i = 0; i < room - 3; i += 20) {
      const batch = await Promise.all(Array.from({ length: Math.min(20, room - 3 - i) }, (_, j) => create(group, `example.fill${i + j}`)))
      expect(batch.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([])
    }
    const race = await Promise.all(Array.from({ length: 8 }, (_, j) => create(group, `example.race${j}`)))
    expect(race.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429])
    const refused = race.find((r) => r.status === 429)!
    expect(refused.body).toMatchObject({ error: 'RateLimitExceeded', message: `This group has ${MAX_SPACES_PER_GROUP} spaces, the most this host keeps for one group; delete one before creating another` })
    expect(refused.headers.get('retry-after')).toBeNull()

    // Deleting one makes room for one, and no more.
    const gone = await net.as('outsider').call('example.groups.deleteSpace', { body: { group, space: `at://${group}/space/example.fill0/self` } })
    expect(gone.status, JSON.stringify(gone.body)).toBe(200)
    expect((await create(group, 'example.after')).status).toBe(200)
    expect((await create(group, 'example.after2')).status).toBe(429)
  })
})
