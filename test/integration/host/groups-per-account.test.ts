import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

// A low cap, so it is met in a few calls; the default (100) is --max-groups-per-account's.
const net = useLocalNetwork({ hostMaxGroupsPerAccount: 3 })

const tag = Date.now().toString(36)
let n = 0
const create = (name: Parameters<typeof net.as>[0], handle = `cap${tag}${n++}.groups.test`) =>
  net.as(name).call<{ did: string; error?: string; message?: string }>('example.groups.createGroup', { body: { handle, joinPolicy: 'open' } })

describe('groups one account may create (issue 22)', () => {
  it('refuses an account its 4th group past a cap of 3: 400 InvalidRequest naming the cap, nothing made', async () => {
    const made = []
    for (let i = 0; i < 3; i++) made.push(await create('outsider'))
    expect(made.map((r) => r.status)).toEqual([200, 200, 200])

    const handle = `cap${tag}over.groups.test`
    const refused = await create('outsider', handle)
    expect(refused).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(refused.body.message).toBe('This host lets one account create at most 3 groups, and you have created 3: it makes no more for you')
    // Nothing was made: the handle is still free, and other accounts have their own count.
    expect((await create('member', handle)).status).toBe(200)

    // Handing a group on and leaving it gives no place back: the group is still kept.
    const group = made[0]!.body.did
    expect((await net.as('outsider2').call('example.groups.requestJoin', { body: { group } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect((await net.as('outsider').call('example.groups.grantRole', { body: { group, did: net.as('outsider2').did, role: 'owner' } })).status).toBe(200)
    expect((await net.as('outsider').call('example.groups.leaveGroup', { body: { group } })).status).toBe(200)
    expect(await create('outsider')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('lets no more than the cap through when one account creates many at once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => create('moderator')))
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([200, 200, 200, 400, 400, 400])
    for (const a of answers.filter((a) => a.status === 400)) expect(a.body.error).toBe('InvalidRequest')
    expect(await create('moderator')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })
})
