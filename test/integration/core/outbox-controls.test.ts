import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const network = useLocalNetwork()
let app: CoreHarness
let owner: string
const group = () => network.group('open').did

useSignedInCore(network, { groups: ['open'] }, (signedIn) => ({ app, owner } = signedIn))

const NOT_ANSWERING = 'The group host is not answering. Your change is kept and will be sent when it answers.'

describe('a hung host, and the person’s controls on what waits for it', () => {
  it('names the host as not answering after the time limit, keeps the change, and lets it be cancelled (not by another account, not dismissed)', async () => {
    const rt = await app.core.groups.runtime(owner)
    const { hostUrl } = await rt.cache.selectFrom('group_row').select('hostUrl').where('did', '=', group()).executeTakeFirstOrThrow()
    const sockets = new Set<net.Socket>()
    const server = net.createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    // Read when the core first talks to this address: a short limit, so the test waits half a second.
    process.env.CONVENE_HOST_TIMEOUT_MS = '500'
    await rt.cache.updateTable('group_row').set({ hostUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` }).where('did', '=', group()).execute()
    try {
      const { outboxId } = await app.call('groups.act', { accountDid: owner, groupDid: group(), action: { kind: 'event.create', event: { name: 'Harbour walk', startsAt: '2030-01-01T10:00:00Z' } } })
      expect((await app.call('groups.events', { accountDid: owner, groupDid: group() })).map((e) => e.name)).toContain('Harbour walk')
      const waiting = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.id === outboxId && o.state === 'queued' && o.detail))
      expect(waiting.detail).toBe(NOT_ANSWERING)
      expect(sockets.size).toBeGreaterThan(0)

      // The window is not trusted: another account's id, or the wrong control, is refused in plain words.
      await expect(app.call('outbox.cancel', { accountDid: 'did:plc:someoneelseaaaaaaaaaaaaa', id: outboxId })).rejects.toThrow('That account is not signed in on this computer.')
      await expect(app.call('outbox.dismiss', { accountDid: owner, id: outboxId })).rejects.toThrow(/still waiting to be sent\. Cancel it instead/)

      // It is tried again every second or two; while a try is under way it cannot be cancelled (it may reach the host).
      await eventually(() =>
        app.call('outbox.cancel', { accountDid: owner, id: outboxId }).then(
          () => true,
          (err: Error) => {
            if (!/being sent right now, so it can no longer be cancelled/.test(err.message)) throw err
            return false
          },
        ),
      )
      expect(await app.call('outbox.list', {})).toEqual([])
      expect((await app.call('groups.events', { accountDid: owner, groupDid: group() })).map((e) => e.name)).not.toContain('Harbour walk')
      await expect(app.call('outbox.cancel', { accountDid: owner, id: outboxId })).rejects.toThrow(/no longer in the list of pending changes/)
    } finally {
      delete process.env.CONVENE_HOST_TIMEOUT_MS
      for (const s of sockets) s.destroy()
      server.close()
      await rt.cache.updateTable('group_row').set({ hostUrl }).where('did', '=', group()).execute()
    }
  })
})
