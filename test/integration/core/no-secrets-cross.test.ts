import { describe, expect, it } from 'vitest'
import { CHANNELS, type Channel } from '../../../src/shared/ipc/contract.js'
import { sessionKey } from '../../../src/main/core/accounts/account-store.js'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, useSignedInCore } from '../../support/core-harness.js'
import { completeOnPdsPages } from '../../support/browser-sign-in.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

useSignedInCore(net, {}, (signedIn) => ({ app, owner } = signedIn))

describe('IPC carries no secret', () => {
  it('walks every channel of the contract and finds no token, key or JWK in what crosses', async () => {
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
      ['groups.joinRequests', inGroup],
      ['groups.openJoinRequests', inGroup],
      ['groups.members', inGroup],
      ['groups.invites', inGroup],
      ['people.resolve', { ref: ownerAccount.handle }],
      ['groups.subjects', inGroup],
      ['groups.subject', { ...inGroup, key: reported }],
      ['groups.events', inGroup],
      ['groups.spaces', inGroup],
      ['groups.create', { accountDid: owner, handle: `walk-${Date.now()}.groups.test`, joinPolicy: 'approval' }],
      ['groups.act', { ...inGroup, action: { kind: 'invite.create', invitee: net.as('outsider2').did } }],
      ['groups.actMany', { ...inGroup, actions: [{ kind: 'invite.revoke', invitee: net.as('outsider2').did }] }],
      ['outbox.list', {}],
      ['sync.now', {}],
      ['sync.status', {}],
    ]
    for (const [channel, input] of calls) {
      const env = await app.raw(channel, input)
      expect(env, channel).toMatchObject({ ok: true })
    }
    // Sign-in: its start hands out the PDS page address; awaiting it returns the account.
    const start = await app.raw('accounts.signIn', { handle: ownerAccount.handle })
    const { attemptId, authorizeUrl } = (start as { value: { attemptId: string; authorizeUrl: string } }).value
    await completeOnPdsPages(authorizeUrl, ownerAccount.password)
    await app.raw('accounts.awaitSignIn', { attemptId })
    await app.raw('accounts.signOut', { did: owner })

    const covered = new Set([...calls.map(([c]) => c), 'accounts.signIn', 'accounts.awaitSignIn', 'accounts.signOut'])
    expect([...CHANNELS].filter((c) => !covered.has(c)), 'channels this test does not walk').toEqual([])

    const crossed = JSON.stringify(app.crossed)
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
