import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { eventually, useSignedInCore, type CoreHarness } from '../../support/core-harness.js'
import type { Updater, UpdaterEvent } from '../../../src/main/core/updates/updater.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string
useSignedInCore(net, { groups: ['approval'] }, (signedIn) => ({ app, owner } = signedIn))

/** An updater whose release feed the test controls; it records a restart instead of doing one. */
function fakeUpdater() {
  let listener: (e: UpdaterEvent) => void = () => {}
  const calls: string[] = []
  const updater: Updater = {
    checkForUpdates: async () => void calls.push('check'),
    downloadUpdate: async () => void calls.push('download'),
    quitAndInstall: () => void calls.push('quitAndInstall'),
    onEvent: (l) => void (listener = l),
  }
  return { updater, calls, emit: (e: UpdaterEvent) => listener(e) }
}

describe('restart to update', () => {
  it('waits while an action is queued for a host that is down, says so, and restarts once it has been sent', async () => {
    const outsider = net.as('outsider')
    await outsider.call('example.groups.requestJoin', { body: { group: net.group('approval').did } })
    await app.call('sync.now', {})
    const feed = fakeUpdater()
    await net.running.restartHost({
      whileDown: async () => {
        app = await app.restartCore({ updater: feed.updater })
        expect(feed.calls).toEqual(['check'])
        await app.call('groups.act', { accountDid: owner, groupDid: net.group('approval').did, action: { kind: 'joinRequest.decide', did: outsider.did, decision: 'admit' } })
        await eventually(async () => (await app.call('outbox.list', {}))[0]?.attempts === 1)
        feed.emit({ kind: 'downloaded', version: '9.9.9' })
        expect(await app.call('app.updateStatus', {})).toMatchObject({ state: 'ready', canRestart: true })

        const waiting = await app.call('app.restartToUpdate', {})
        expect(waiting).toMatchObject({ state: 'waiting', pendingChanges: 1, canRestart: false })
        expect(waiting.message).toBe('1 change is still waiting to be sent. Convene will restart to update once it has gone out.')
        expect(feed.calls).not.toContain('quitAndInstall')
      },
    })
    await app.call('sync.now', {})
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    // Nobody presses anything again: the waiting restart goes ahead by itself.
    await eventually(async () => feed.calls.includes('quitAndInstall'))
    expect(await app.call('app.updateStatus', {})).toMatchObject({ state: 'restarting' })
  })
})
