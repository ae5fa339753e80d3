import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'
import { sessionKey } from '../../../src/main/core/accounts/account-store.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string
const groupDid = () => net.group('approval').did

useSignedInCore(net, { groups: ['approval'] }, (signedIn) => ({ app, owner } = signedIn))

describe('nothing queued is lost', () => {
  it('survives the app being killed while offline, and sends once when started again', async () => {
    const outsider = net.as('outsider')
    await outsider.call('example.groups.requestJoin', { body: { group: groupDid() } })
    await app.call('sync.now', {})
    await net.running.restartHost({
      whileDown: async () => {
        await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'joinRequest.decide', did: outsider.did, decision: 'admit' } })
        await eventually(async () => (await app.call('outbox.list', {}))[0]?.attempts === 1)
        // The process dies: no clean shutdown, the in-memory state is gone.
        app = await app.restartCore()
      },
    })
    // A new process over the same data folder and keychain shows the queued action at once…
    const queued = await app.call('outbox.list', {})
    expect(queued).toEqual([expect.objectContaining({ label: expect.stringContaining('Admit'), state: 'queued' })])
    const cached = (await app.call('groups.joinRequests', { accountDid: owner, groupDid: groupDid() })).items
    expect(cached.length).toBeGreaterThan(0)
    expect(cached.every((r) => r.pending)).toBe(true)
    // …and sends it when the host is back.
    await app.call('sync.now', {})
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    const members = await app.call('groups.members', { accountDid: owner, groupDid: groupDid() }).then((p) => p.items)
    expect(members.filter((m) => m.did === outsider.did)).toHaveLength(1)
  })

  it('sends queued work and catches up in the background, with nobody asking', async () => {
    const background = await CoreHarness.start(net.stack, { secrets: app.secrets, dataDir: `${app.dataDir}-bg` }, { syncIntervalMs: 200 })
    try {
      const requester = net.as('outsider2')
      await requester.call('example.groups.leaveGroup', { body: { group: groupDid() } }).catch(() => {})
      await background.call('groups.add', { accountDid: owner, ref: groupDid() })
      await requester.call('example.groups.requestJoin', { body: { group: groupDid() } })
      // No sync.now: the host's change log moved, and the background pass notices.
      await eventually(async () => (await background.call('groups.joinRequests', { accountDid: owner, groupDid: groupDid() })).items.some((r) => r.did === requester.did))
    } finally {
      await background.core.close()
      fs.rmSync(background.dataDir, { recursive: true, force: true })
    }
  })

  it('keeps queued work when the sign-in ends, asks to sign in again, then sends it', async () => {
    const outsider2 = net.as('outsider2')
    await outsider2.call('example.groups.requestJoin', { body: { group: groupDid() } })
    await app.call('sync.now', {})
    // The session ends (revoked, expired): it is gone from the keychain.
    await app.secrets.delete(sessionKey(owner))
    await app.restartCore().then((a) => (app = a))
    expect((await app.call('accounts.list', {})).find((a) => a.did === owner)?.status).toBe('needs-sign-in')
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'joinRequest.decide', did: outsider2.did, decision: 'deny' } })
    // Tried and put back: `attempts` counts from the moment a send starts, so wait for it to settle.
    const waiting = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.attempts > 0 && o.state !== 'sending'))
    expect(waiting.state).toBe('queued')
    expect(waiting.detail).toContain('Sign in again')
    await app.signIn('owner')
    await app.call('sync.now', {})
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    expect((await app.call('groups.joinRequests', { accountDid: owner, groupDid: groupDid() })).items.some((r) => r.did === outsider2.did)).toBe(false)
  })

  it('quitting while a change is being made keeps the change, and turns away calls after', async () => {
    const invitee = `did:plc:${'q'.repeat(24)}`
    const quitting = app
    // The window asks for a change at the moment the app quits.
    const acting = quitting.raw('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'invite.create', invitee } })
    app = await quitting.restartCore()
    expect(await acting).toMatchObject({ ok: true })
    expect(await quitting.raw('groups.list', {})).toMatchObject({ ok: false, error: { code: 'AppClosing', message: expect.stringContaining('Convene is closing') } })
    // Acknowledged, so kept: the next start sends it, once.
    await app.call('sync.now', {})
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    await app.call('sync.now', {})
    const { items } = await app.call('groups.invites', { accountDid: owner, groupDid: groupDid() })
    expect(items.filter((i) => i.invitee === invitee)).toHaveLength(1)
  })
})
