import { describe, expect, it } from 'vitest'
import { checkGrantedScope } from '../../src/main/core/session/mint-service-auth.js'
import { groupScopes, rpcScope } from '../../src/shared/scopes.js'

const AUD = 'did:plc:abcdefghijklmnopqrstuvwx#groups'

describe('the granted scope decides what is asked of the PDS', () => {
  it('mints for a method the grant allows', async () => {
    const calls: string[] = []
    const mint = checkGrantedScope(async () => `atproto ${rpcScope('example.groups.admitMember', AUD)}`, async (_a, lxm) => {
      calls.push(lxm)
      return 'token'
    })
    await expect(mint(AUD, 'example.groups.admitMember', 0)).resolves.toBe('token')
    expect(calls).toEqual(['example.groups.admitMember'])
  })

  it('fails at once, naming the scope, for a method the grant lacks: no PDS round trip', async () => {
    const calls: string[] = []
    const mint = checkGrantedScope(async () => `atproto ${rpcScope('example.groups.admitMember', AUD)}`, async (_a, lxm) => {
      calls.push(lxm)
      return 'token'
    })
    await expect(mint(AUD, 'example.groups.ejectMember', 0)).rejects.toMatchObject({ code: 'ScopeMissingError', data: { scope: rpcScope('example.groups.ejectMember', AUD) } })
    await expect(mint('did:plc:zzzzzzzzzzzzzzzzzzzzzzzz#groups', 'example.groups.admitMember', 0)).rejects.toMatchObject({ code: 'ScopeMissingError' })
    expect(calls).toEqual([])
  })

  it('leaves unknown grants to the PDS', async () => {
    const mint = checkGrantedScope(async () => undefined, async () => 'token')
    await expect(mint(AUD, 'example.groups.ejectMember', 0)).resolves.toBe('token')
  })

  it('asks for space reads one by one (a permission set may only name its own namespace)', () => {
    expect(groupScopes(AUD).split(' ')).toEqual([
      'atproto',
      'include:example.groups.basePermissions?aud=did:plc:abcdefghijklmnopqrstuvwx%23groups',
      'include:example.groups.calendarPermissions',
      'repo:community.lexicon.calendar.rsvp',
      'rpc:com.atproto.space.getRecord?aud=did:plc:abcdefghijklmnopqrstuvwx%23groups',
      'rpc:com.atproto.space.listRecords?aud=did:plc:abcdefghijklmnopqrstuvwx%23groups',
    ])
  })
})
