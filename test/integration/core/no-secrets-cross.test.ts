import { describe, expect, it } from 'vitest'
import { CHANNELS, NOTICE_NAMES, type Channel, type Notice } from '../../../src/shared/ipc/contract.js'
import { sessionKey } from '../../../src/main/core/accounts/account-store.js'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, useSignedInCore } from '../../support/core-harness.js'
import { completeOnPdsPages } from '../../support/browser-sign-in.js'
import { completeGroupSignIn } from '../../support/group-sign-in.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

useSignedInCore(net, {}, (signedIn) => ({ app, owner } = signedIn))

describe('IPC carries no secret', () => {
  it('walks every channel of the contract and finds no token, key or JWK in what crosses', async () => {
    // The core's notices cross too: every kind is heard during the walk and checked with the rest.
    const notices: Notice[] = []
    const unsubscribe = app.core.notices.subscribe((n) => notices.push(n))
    const groupDid = net.group('open').did
    const inGroup = { accountDid: owner, groupDid }
    const ownerAccount = net.stack.accounts.find((a) => a.name === 'owner')!
    // Something in the moderation queue, for the subject pane's channel to read.
    const reported = net.as('outsider2').did
    const filed = await net.as('member').call('example.groups.createReport', {
      body: { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: reported }, reasonType: 'com.atproto.moderation.defs#reasonSpam', reason: 'Ads' },
    })
    expect(filed.status).toBe(200)
    // One call per channel, in an order that leaves something to show.
    const calls: [Channel, unknown][] = [
      ['app.getInfo', {}],
      ['app.raiseWindow', {}],
      ['app.openLogFolder', {}],
      ['app.updateStatus', {}],
      ['app.restartToUpdate', {}],
      ['accounts.list', {}],
      ['groups.add', { accountDid: owner, ref: groupDid }],
      ['groups.list', {}],
      ['groups.refresh', inGroup],
      ['groups.findMine', { accountDid: owner }],
      ['invites.mine', { accountDid: owner }],
      ['invites.accept', inGroup],
      ['invites.createMany', { ...inGroup, refs: [net.as('outsider2').did] }],
      ['groups.joinRequests', inGroup],
      ['groups.openJoinRequests', inGroup],
      ['groups.members', inGroup],
      ['groups.invites', inGroup],
      ['people.resolve', { ref: ownerAccount.handle }],
      ['groups.subjects', inGroup],
      ['groups.subject', { ...inGroup, key: reported }],
      ['groups.resolvedSubjects', inGroup],
      ['groups.auditLog', inGroup],
      ['groups.memberHistory', { ...inGroup, did: 'did:plc:nobodyaaaaaaaaaaaaaaaaaa' }],
      ['groups.publicPosts', inGroup],
      ['groups.events', inGroup],
      ['groups.eventImage', { ...inGroup, cid: 'bafkreinotheldaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }],
      ['groups.attendanceHistory', { ...inGroup, did: 'did:plc:nobodyaaaaaaaaaaaaaaaaaa' }],
      ['groups.spaces', inGroup],
      ['groups.create', { accountDid: owner, handle: `walk-${Date.now()}.groups.test`, joinPolicy: 'approval' }],
      ['groups.act', { ...inGroup, action: { kind: 'invite.create', invitee: net.as('outsider2').did } }],
      ['groups.actMany', { ...inGroup, actions: [{ kind: 'invite.revoke', invitee: net.as('outsider2').did }] }],
      ['outbox.list', {}],
      ['today.items', {}],
      ['sync.now', {}],
      ['sync.status', {}],
    ]
    for (const [channel, input] of calls) {
      const env = await app.raw(channel, input)
      expect(env, channel).toMatchObject({ ok: true })
    }
    // The pending-change controls, on a change that is not there: a refusal in plain words crosses, nothing else.
    const controls = ['outbox.cancel', 'outbox.retry', 'outbox.dismiss'] as const
    for (const channel of controls) {
      const env = await app.raw(channel, { accountDid: owner, id: 999_999 })
      expect(env, channel).toMatchObject({ ok: false, error: { message: expect.any(String) } })
    }
    // Door mode for an event that is not there: the refusal in plain words.
    expect(await app.raw('groups.door', { ...inGroup, rkey: '3lbxkeuvqhk2a' }), 'groups.door').toMatchObject({ ok: false, error: { message: 'That event is no longer on the calendar.' } })
    // Declining an invite there is not: the refusal in plain words.
    expect(await app.raw('invites.decline', inGroup), 'invites.decline').toMatchObject({ ok: false, error: { message: expect.stringContaining('no longer open') } })
    // Sign-in: its start hands out the PDS page address; awaiting it returns the account.
    const start = await app.raw('accounts.signIn', { handle: ownerAccount.handle })
    const { attemptId, authorizeUrl } = (start as { value: { attemptId: string; authorizeUrl: string } }).value
    await completeOnPdsPages(authorizeUrl, ownerAccount.password)
    await app.raw('accounts.awaitSignIn', { attemptId })
    await app.raw('accounts.signOut', { did: owner })
    // Acting as a group: the host's pages, then a write as the group (in the calendar an
    // organizer starts), then sign-out.
    await net.as('owner').call('example.groups.createSpace', {
      body: { group: groupDid, type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar', readableBy: ['owner'], credentialScopes: [{ role: 'owner', scopes: ['community.lexicon.calendar.event'] }] },
    })
    const groupStart = await app.raw('groupSessions.signIn', { group: groupDid })
    expect(groupStart, 'groupSessions.signIn').toMatchObject({ ok: true })
    const group = (groupStart as { value: { attemptId: string; authorizeUrl: string } }).value
    await completeGroupSignIn(group.authorizeUrl, ownerAccount)
    const groupCalls: [Channel, unknown][] = [
      ['groupSessions.awaitSignIn', { attemptId: group.attemptId }],
      ['groupSessions.list', {}],
      ['groupSessions.createEvent', { groupDid, event: { name: 'Walked', startsAt: new Date(Date.now() + 86_400_000).toISOString() } }],
      ['groupSessions.signOut', { did: groupDid }],
    ]
    for (const [channel, input] of groupCalls) expect(await app.raw(channel, input), channel).toMatchObject({ ok: true })

    const covered = new Set([...calls.map(([c]) => c), ...groupCalls.map(([c]) => c), ...controls, 'invites.decline', 'groups.door', 'accounts.signIn', 'accounts.awaitSignIn', 'accounts.signOut', 'groupSessions.signIn'])
    expect([...CHANNELS].filter((c) => !covered.has(c)), 'channels this test does not walk').toEqual([])
    unsubscribe()
    const heard = new Set(notices.map((n) => n.name))
    expect(NOTICE_NAMES.filter((n) => !heard.has(n)), 'notices this walk never heard').toEqual([])

    const crossed = JSON.stringify([app.crossed, notices])
    expect(crossed).not.toMatch(/eyJ[\w-]{8,}\.[\w-]{8,}\./) // no JWT of any kind
    expect(crossed).not.toMatch(/"d"\s*:/) // no private JWK member
    expect(crossed).not.toMatch(/access_token|refresh_token|dpopJwk|accessJwt/)
  })

  it('the session and its DPoP private key are in the keychain, nowhere on disk', async () => {
    const did = await app.signIn('admin')
    const saved = JSON.parse((await app.secrets.get(sessionKey(did)))!) as { dpopJwk: { d?: string }; tokenSet: { access_token: string; refresh_token?: string } }
    expect(saved.dpopJwk.d).toBeTruthy()
    const { execFileSync } = await import('node:child_process')
    for (const secret of [saved.dpopJwk.d!, saved.tokenSet.access_token, saved.tokenSet.refresh_token].filter(Boolean) as string[]) {
      // grep exits 1 when nothing matches: the secret is in no file under the app's data folder.
      let found = ''
      try {
        found = execFileSync('grep', ['-rl', '--', secret, app.dataDir], { encoding: 'utf8' })
      } catch (err) {
        expect((err as { status: number }).status).toBe(1)
      }
      expect(found).toBe('')
    }
  })
})
