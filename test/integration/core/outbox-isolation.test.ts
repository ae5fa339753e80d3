import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const network = useLocalNetwork()
let app: CoreHarness
let owner: string
const hung = () => network.group('open').did
const fine = () => network.group('approval').did

useSignedInCore(network, { groups: ['open', 'approval'] }, (signedIn) => ({ app, owner } = signedIn))

/** A "host" that takes connections and never answers. */
async function silentHost() {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => void sockets.add(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    sockets,
    stop: () => {
      for (const socket of sockets) socket.destroy()
      server.close()
    },
  }
}

describe('one group’s host never holds up another group’s actions', () => {
  it('sends to a group whose host answers while another group’s host hangs, then sends the hung one once', async () => {
    const rt = await app.core.groups.runtime(owner)
    const { hostUrl } = await rt.cache.selectFrom('group_row').select('hostUrl').where('did', '=', hung()).executeTakeFirstOrThrow()
    const silent = await silentHost()
    const toHung = `did:plc:${'h'.repeat(24)}`
    const toFine = `did:plc:${'f'.repeat(24)}`
    // The group's host, as this account knows it, stops answering.
    await rt.cache.updateTable('group_row').set({ hostUrl: silent.url }).where('did', '=', hung()).execute()
    try {
      await app.call('groups.act', { accountDid: owner, groupDid: hung(), action: { kind: 'invite.create', invitee: toHung } })
      await eventually(async () => silent.sockets.size > 0)
      await app.call('groups.act', { accountDid: owner, groupDid: fine(), action: { kind: 'invite.create', invitee: toFine } })
      await eventually(async () => !(await app.call('outbox.list', {})).some((o) => o.groupDid === fine()))
      expect(await app.call('outbox.list', {})).toEqual([expect.objectContaining({ groupDid: hung(), state: 'sending' })])
      const invited = await app.call('groups.invites', { accountDid: owner, groupDid: fine(), q: toFine })
      expect(invited.items.map((i) => i.invitee)).toEqual([toFine])
    } finally {
      silent.stop()
      await rt.cache.updateTable('group_row').set({ hostUrl }).where('did', '=', hung()).execute()
    }
    // Cut off, it waits out a back-off; "Sync now" ends it, and the host gets it once.
    await eventually(async () => (await app.call('outbox.list', {}))[0]?.state === 'queued')
    await app.call('sync.now', {})
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    const invites = await app.call('groups.invites', { accountDid: owner, groupDid: hung(), q: toHung })
    expect(invites.items.map((i) => i.invitee)).toEqual([toHung])
  })
})
