import { describe, expect, it } from 'vitest'
import { createApi } from '../../src/shared/ipc/api.js'
import { CHANNELS, contract, NOTICE_NAMES, parseNotice, type Notice } from '../../src/shared/ipc/contract.js'
import { ConveneError } from '../../src/shared/ipc/envelope.js'
import { dispatch, type Handlers } from '../../src/main/core/ipc/dispatch.js'
import { UserFacingError } from '../../src/main/core/ipc/errors.js'
import { fakeHandlers } from '../support/fake-handlers.js'

const handlers = fakeHandlers

/** The API as the renderer sees it, wired straight to dispatch (no shell in between). */
const apiFor = (h: Handlers) => createApi((channel, input) => dispatch(h, channel, input))

describe('IPC contract', () => {
  it('the renderer API has exactly one method per contract channel, and the notice subscription', () => {
    expect(Object.keys(apiFor(handlers())).sort()).toEqual([...CHANNELS, 'onNotice'].sort())
    expect(CHANNELS.length).toBe(Object.keys(contract).length)
  })

  it('every store hears the notices through one subscription to the shell, closed with the last listener', () => {
    let opened = 0
    let closed = 0
    let push: ((n: Notice) => void) | null = null
    const api = createApi(
      (channel, input) => dispatch(handlers(), channel, input),
      (listener) => {
        opened++
        push = listener
        return () => void closed++
      },
    )
    const heard: string[] = []
    const offA = api.onNotice((n) => heard.push(`a:${n.name}`))
    const offB = api.onNotice((n) => heard.push(`b:${n.name}`))
    expect(opened).toBe(1)
    push!({ name: 'groups.changed', payload: {} } as Notice)
    expect(heard).toEqual(['a:groups.changed', 'b:groups.changed'])
    offA()
    expect(closed).toBe(0)
    offB()
    expect(closed).toBe(1)
    api.onNotice(() => {})
    expect(opened).toBe(2)
  })

  it('a notice crosses only when the contract names it, with only the keys its schema names', () => {
    const change = { accountDid: 'did:plc:a', groupDid: 'did:plc:g', summary: null, lists: ['members'] }
    expect(parseNotice({ name: 'group.changed', payload: { groups: [{ ...change, accessJwt: 'SECRET' }], token: 'SECRET' } })).toEqual({
      name: 'group.changed',
      payload: { groups: [change] },
    })
    expect(parseNotice({ name: 'group.changed', payload: { groups: [{ ...change, lists: ['secrets'] }] } })).toBeNull()
    expect(parseNotice({ name: 'fs.changed', payload: {} })).toBeNull()
    expect(parseNotice({ name: '__proto__', payload: {} })).toBeNull()
    expect(parseNotice({ name: 'group.changed', payload: { accountDid: 1 } })).toBeNull()
    expect(NOTICE_NAMES.length).toBeGreaterThan(0)
    expect(NOTICE_NAMES.every((n) => !Object.hasOwn(contract, n))).toBe(true)
  })

  it('refuses a channel the contract does not name', async () => {
    const env = await dispatch(handlers(), 'fs.readFile', {})
    expect(env).toMatchObject({ ok: false, error: { code: 'UnknownChannel' } })
    const proto = await dispatch(handlers(), '__proto__', {})
    expect(proto).toMatchObject({ ok: false, error: { code: 'UnknownChannel' } })
  })

  it('refuses input the contract does not allow', async () => {
    const env = await dispatch(handlers(), 'accounts.list', { sneaky: true })
    expect(env).toMatchObject({ ok: false, error: { code: 'InvalidInput' } })
  })

  it('drops fields the output schema does not name, so secrets cannot cross', async () => {
    const leaky = handlers({
      'accounts.list': async () =>
        [{ did: 'did:plc:x', handle: 'x.test', status: 'active', accessJwt: 'SECRET', dpopJwk: { d: 'SECRET' } }] as never,
    })
    const accounts = await apiFor(leaky)['accounts.list']({})
    expect(accounts).toEqual([{ did: 'did:plc:x', handle: 'x.test', status: 'active' }])
    expect(JSON.stringify(accounts)).not.toContain('SECRET')
  })

  it('carries a plain-language error as a ConveneError with its code', async () => {
    const failing = handlers({
      'accounts.list': async () => {
        throw new UserFacingError('KeychainUnavailable', 'No keychain is available.')
      },
    })
    await expect(apiFor(failing)['accounts.list']({})).rejects.toMatchObject({
      name: 'ConveneError',
      code: 'KeychainUnavailable',
      message: 'No keychain is available.',
    })
  })

  it('hides the details of unexpected errors from the renderer', async () => {
    const failing = handlers({
      'accounts.list': async () => {
        throw new Error('token=SECRET at /home/x/.config')
      },
    })
    const err = await apiFor(failing)['accounts.list']({}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConveneError)
    expect((err as ConveneError).code).toBe('InternalError')
    expect((err as ConveneError).message).not.toContain('SECRET')
  })
})

describe('event fields', () => {
  const act = (event: Record<string, string>) =>
    contract['groups.act'].input.safeParse({ accountDid: 'did:plc:a', groupDid: 'did:plc:g', action: { kind: 'event.create', event: { name: 'Picnic', ...event } } })

  it('refuses an end before the start, comparing instants rather than text', () => {
    expect(act({ startsAt: '2026-11-22T19:00:00+01:00', endsAt: '2026-11-22T18:00:00+01:00' }).success).toBe(false)
    // 02:15 at +01:00 is after 02:30 at +02:00 (the night summer time ends), though it sorts before it.
    expect(act({ startsAt: '2026-10-25T02:30:00+02:00', endsAt: '2026-10-25T02:15:00+01:00' }).success).toBe(true)
    expect(act({ startsAt: '2026-11-22T19:00:00+01:00' }).success).toBe(true)
  })
})

describe('a check-in at the door', () => {
  const checkIn = (person: Record<string, string>) =>
    contract['groups.act'].input.safeParse({ accountDid: 'did:plc:a', groupDid: 'did:plc:g', action: { kind: 'attendance.checkIn', rkey: '3lbxkeuvqhk2a', walkIn: true, ...person } })
  const many = (person: Record<string, string>) =>
    contract['groups.actMany'].input.safeParse({ accountDid: 'did:plc:a', groupDid: 'did:plc:g', actions: [{ kind: 'attendance.checkIn', rkey: '3lbxkeuvqhk2a', ...person }] })

  it('names the person by DID or, for a walk-in not looked up yet, by handle; one of the two', () => {
    expect(checkIn({ did: 'did:plc:sam' }).success).toBe(true)
    const byHandle = checkIn({ handle: '@Sam.Example.com ' })
    expect(byHandle.success).toBe(true)
    // Kept as it is looked up: no @, lower case.
    expect(byHandle.data?.action).toMatchObject({ handle: 'sam.example.com' })
    expect(checkIn({}).success).toBe(false)
    expect(many({}).success).toBe(false)
    expect(many({ handle: 'sam.example.com' }).success).toBe(true)
    expect(checkIn({ handle: 'sam example' }).success).toBe(false)
    expect(checkIn({ handle: 'did:plc:sam' }).success).toBe(false)
  })
})
