import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
type Name = Parameters<typeof net.as>[0]
const as = net.caller
const group = () => net.group('approval').did

const putRole = (by: Name, name: string, actions: string[], assignable: string[] = []) =>
  as(by).call<{ seq?: number; error?: string; message?: string }>('example.groups.putRole', { body: { group: group(), name, actions, assignable } })
const deleteRole = (by: Name, name: string) => as(by).call<{ error?: string; message?: string }>('example.groups.deleteRole', { body: { group: group(), name } })
const ask = (name: Name) => as(name).call('example.groups.requestJoin', { body: { group: group() } })
const admit = (by: Name, who: Name) => as(by).call<{ error?: string }>('example.groups.admitMember', { body: { group: group(), did: as(who).did, decision: 'admit' } })
const roles = async () =>
  (await as('member').call<{ roles: { name: string; actions: string[]; assignable: string[] }[] }>('example.groups.getGroup', { params: { group: group() } })).body.roles

describe('custom roles: putRole and deleteRole', () => {
  it('an owner defines a role that may admit; its holder admits, and it is listed for every member', async () => {
    const made = await putRole('owner', 'greeter', ['admit'])
    expect(made).toMatchObject({ status: 200, body: { seq: expect.any(Number) } })
    expect(await roles()).toContainEqual({ name: 'greeter', actions: ['admit'], assignable: [] })
    // Whoever may define roles may hand a new one out.
    expect((await as('owner').call('example.groups.grantRole', { body: { group: group(), did: as('member').did, role: 'greeter' } })).status).toBe(200)
    await ask('outsider')
    expect(await admit('member', 'outsider')).toMatchObject({ status: 200 })
  })

  it('taking an action from a role is refused at once for its holders', async () => {
    expect((await putRole('owner', 'greeter', [])).status).toBe(200)
    await ask('outsider2')
    expect(await admit('member', 'outsider2')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await as('member').call<{ viewer: { actions: string[] } }>('example.groups.getGroup', { params: { group: group() } })).body.viewer.actions).toEqual([])
  })

  it('never leaves the group without someone able to configure it', async () => {
    const owner = (await roles()).find((r) => r.name === 'owner')!
    const res = await putRole('owner', 'owner', owner.actions.filter((a) => a !== 'group.configure'), owner.assignable)
    expect(res).toMatchObject({ status: 400, body: { error: 'LastConfigurer' } })
    expect((await roles()).find((r) => r.name === 'owner')!.actions).toContain('group.configure')
  })

  it('deletes a role only once nobody holds it, and never the default role', async () => {
    const held = await deleteRole('owner', 'greeter')
    expect(held).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(held.body.message).toMatch(/1 member holds the role "greeter": take it from them first/)
    expect((await as('owner').call('example.groups.revokeRole', { body: { group: group(), did: as('member').did, role: 'greeter' } })).status).toBe(200)
    expect(await deleteRole('owner', 'greeter')).toMatchObject({ status: 200 })
    expect((await roles()).map((r) => r.name)).not.toContain('greeter')
    expect((await roles()).find((r) => r.name === 'owner')!.assignable).not.toContain('greeter')
    expect(await deleteRole('owner', 'member')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await deleteRole('owner', 'nosuchrole')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('refuses callers who may not configure the group, and bad definitions, with specific errors', async () => {
    expect(await putRole('admin', 'helpers', ['admit'])).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await deleteRole('admin', 'moderator')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    const badName = await putRole('owner', 'Bad Name', [])
    expect(badName).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(badName.body.message).toMatch(/not a role name/)
    const unknown = await putRole('owner', 'helpers', ['admit', 'launch.rockets'])
    expect(unknown.body.message).toMatch(/Unknown actions: launch\.rockets/)
    expect((await putRole('owner', 'helpers', [], ['nobody'])).body.message).toMatch(/no role "nobody"/)
    expect((await roles()).map((r) => r.name)).not.toContain('helpers')
  })
})
