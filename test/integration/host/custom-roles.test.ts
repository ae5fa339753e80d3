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

  it('a deleted role leaves no access behind: a later role of the same name cannot read or write what it could', async () => {
    const space = `at://${group()}/space/example.notes/treasurers`
    expect((await putRole('owner', 'treasurer', [])).status).toBe(200)
    const made = await as('owner').call('example.groups.createSpace', {
      body: { group: group(), type: 'example.notes', skey: 'treasurers', name: 'Accounts', readableBy: ['owner', 'treasurer'], credentialScopes: [{ role: 'treasurer', scopes: ['*'] }] },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    expect(await deleteRole('owner', 'treasurer')).toMatchObject({ status: 200 })
    // The space's access record (its index record, which any member reads) no longer names it.
    const index = await as('member').call<{ value: { readableBy: string[]; credentialScopes: { role: string }[] } }>('com.atproto.space.getRecord', {
      params: { space: `at://${group()}/space/members/self`, repo: group(), collection: 'example.groups.space', rkey: 'example.notes:treasurers' },
    })
    expect(index.status, JSON.stringify(index.body)).toBe(200)
    expect(index.body.value.readableBy).toEqual(['owner'])
    expect(index.body.value.credentialScopes).toEqual([])
    // Someone later makes a new role with that name and hands it out: it starts with nothing.
    expect((await putRole('owner', 'treasurer', [])).status).toBe(200)
    expect((await as('owner').call('example.groups.grantRole', { body: { group: group(), did: as('member').did, role: 'treasurer' } })).status).toBe(200)
    const params = { space, repo: group(), collection: 'example.notes.page' }
    expect(await as('member').call('com.atproto.space.listRecords', { params })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await as('owner').call('example.groups.revokeRole', { body: { group: group(), did: as('member').did, role: 'treasurer' } })).status).toBe(200)
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

describe('renaming a custom role: putRole with previousName', () => {
  const holderRoles = async (who: Name) =>
    (await as(who).call<{ viewer: { roles: string[]; actions: string[] } }>('example.groups.getGroup', { params: { group: group() } })).body.viewer

  it('renames it at once: its holder keeps it and what it allows under the new name, other roles still assign it, and the audit log names who', async () => {
    expect((await putRole('owner', 'doorkeeper', ['admit'])).status).toBe(200)
    expect((await as('owner').call('example.groups.grantRole', { body: { group: group(), did: as('member').did, role: 'doorkeeper' } })).status).toBe(200)
    const renamed = await as('owner').call<{ seq?: number }>('example.groups.putRole', {
      body: { group: group(), name: 'welcomer', previousName: 'doorkeeper', actions: ['admit'], assignable: [] },
    })
    expect(renamed).toMatchObject({ status: 200, body: { seq: expect.any(Number) } })
    const names = (await roles()).map((r) => r.name)
    expect(names).toContain('welcomer')
    expect(names).not.toContain('doorkeeper')
    expect(await holderRoles('member')).toMatchObject({ roles: expect.arrayContaining(['welcomer']), actions: ['admit'] })
    expect((await roles()).find((r) => r.name === 'owner')!.assignable).toContain('welcomer')
    await ask('outsider2')
    expect(await admit('member', 'outsider2')).toMatchObject({ status: 200 })
    const audit = await as('owner').call<{ entries: { kind: string; actor?: string }[] }>('example.groups.listAuditLog', { params: { group: group(), kind: 'group.configured' } })
    expect(audit.status, JSON.stringify(audit.body)).toBe(200)
    expect(audit.body.entries.some((e) => e.actor === as('owner').did)).toBe(true)
  })

  it('keeps the built-in roles’ names, and refuses a name already taken or malformed', async () => {
    const rename = (from: string, to: string) =>
      as('owner').call<{ error?: string; message?: string }>('example.groups.putRole', { body: { group: group(), name: to, previousName: from, actions: [], assignable: [] } })
    const builtIn = await rename('moderator', 'mods')
    expect(builtIn).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(builtIn.body.message).toMatch(/built-in role; its name stays/)
    expect((await rename('welcomer', 'admin')).body.message).toMatch(/already has a role "admin"/)
    expect((await rename('welcomer', 'Bad Name')).body.message).toMatch(/not a role name/)
    expect((await rename('nosuchrole', 'other')).body.message).toMatch(/no role "nosuchrole"/)
    expect((await roles()).map((r) => r.name)).toEqual(expect.arrayContaining(['moderator', 'welcomer']))
  })

  it('refuses a rename by someone who may not configure the group', async () => {
    const res = await as('admin').call('example.groups.putRole', { body: { group: group(), name: 'x-welcomer', previousName: 'welcomer', actions: ['admit'], assignable: [] } })
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await roles()).map((r) => r.name)).toContain('welcomer')
  })
})
