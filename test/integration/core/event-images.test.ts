import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'
import { XrpcCallError } from '../../../src/main/core/xrpc/xrpc-error.js'

/**
 * An event's image (issue 27 point 4), from the app's core against the real local network:
 * chosen as the group, uploaded for the calendar space and named by an
 * `example.groups.eventImage` record, then read back from the host (getSpaceBlob) at the
 * next sync and shown on the event; removing it takes it off.
 */
const net = useLocalNetwork()
let app: CoreHarness
let owner: string
const groupDid = () => net.group('open').did
useSignedInCore(net, { groups: ['open'] }, (signedIn) => ({ app, owner } = signedIn))

const settled = async () =>
  eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state !== 'queued' && o.state !== 'sending')).catch(async (e: unknown) => {
    throw new Error(`${(e as Error).message}: ${JSON.stringify(await app.call('outbox.list', {}))}`)
  })
const events = () => app.call('groups.events', { accountDid: owner, groupDid: groupDid() })
const image = (cid: string) => app.call('groups.eventImage', { accountDid: owner, groupDid: groupDid(), cid })
// A 1x1 PNG and a 1x1 GIF.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'

describe('an event’s image', () => {
  it('is shown back on the event from the host, and can be replaced and removed', async () => {
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.create', event: { name: 'Harbour walk', startsAt: new Date(Date.now() + 86_400_000).toISOString() } } })
    await settled()
    const [event] = await eventually(async () => ((await events()).find((e) => e.uri) ? events() : null))
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.image', rkey: event!.rkey, image: { data: PNG, mimeType: 'image/png', alt: 'The harbour at dawn' } } })
    await settled()
    expect((await app.call('outbox.list', {})).filter((o) => o.kind === 'event.image')).toEqual([])
    // Read back from the host, not from what was queued: the cache's copy is replaced by the sync.
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    const shown = (await events()).find((e) => e.rkey === event!.rkey)!
    // The events list names the picture (its blob's CID) and carries no bytes...
    expect(shown.image).toEqual({ cid: expect.stringMatching(/^bafkrei/), alt: 'The harbour at dawn', held: true })
    expect(JSON.stringify(await events())).not.toContain(PNG.slice(0, 24))
    // ...which the window asks for by that CID, once.
    expect(await image(shown.image!.cid)).toEqual({ url: `data:image/png;base64,${PNG}` })
    const rt = await app.core.groups.runtime(owner)
    const cached = (await rt.cache.selectFrom('item').select('view').where('kind', '=', 'event').where('key', '=', event!.rkey).executeTakeFirstOrThrow()).view
    expect(cached).not.toContain(PNG.slice(0, 24))
    // The picture queued here was kept under a provisional key until the host's copy came: it is gone now.
    expect((await rt.cache.selectFrom('event_image').select('cid').execute()).map((r) => r.cid)).toEqual([shown.image!.cid])
    const pngCid = shown.image!.cid

    // Chosen again: the new picture replaces the old one (the same record, at the event's rkey).
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.image', rkey: event!.rkey, image: { data: GIF, mimeType: 'image/gif', alt: 'A gull' } } })
    await settled()
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    const gull = (await events()).find((e) => e.rkey === event!.rkey)!.image!
    expect(gull).toEqual({ cid: expect.stringMatching(/^bafkrei/), alt: 'A gull', held: true })
    expect(await image(gull.cid)).toEqual({ url: `data:image/gif;base64,${GIF}` })
    // The replaced picture's bytes are not kept: no event names it any more.
    expect(await image(pngCid)).toBeNull()

    // Offline (the host cannot be reached), the picture still comes from the cache.
    const hostOf = rt.hostOf.bind(rt)
    rt.hostOf = () => Promise.reject(new XrpcCallError('example.groups.getSpaceBlob', 0, 'ServerUnreachable', 'gone'))
    try {
      expect(await image(gull.cid)).toEqual({ url: `data:image/gif;base64,${GIF}` })
    } finally {
      rt.hostOf = hostOf
    }

    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.image', rkey: event!.rkey, image: null } })
    await settled()
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    expect((await events()).find((e) => e.rkey === event!.rkey)!.image).toBeNull()
    expect(await image(gull.cid)).toBeNull()
  })

  it('shows a picture chosen here at once, from the cache, before it is sent', async () => {
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.create', event: { name: 'Pier supper', startsAt: new Date(Date.now() + 86_400_000).toISOString() } } })
    await settled()
    const event = await eventually(async () => (await events()).find((e) => e.name === 'Pier supper' && e.uri) ?? null)
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.image', rkey: event.rkey, image: { data: PNG, mimeType: 'image/png', alt: 'Lanterns' } }, hold: 60_000 })
    const waiting = (await events()).find((e) => e.rkey === event.rkey)!
    expect(waiting).toMatchObject({ pending: true, image: { cid: expect.stringMatching(/^pending:/), alt: 'Lanterns', held: true } })
    expect(await image(waiting.image!.cid)).toEqual({ url: `data:image/png;base64,${PNG}` })
    const [queued] = (await app.call('outbox.list', {})).filter((o) => o.kind === 'event.image')
    await app.call('outbox.cancel', { accountDid: owner, id: queued!.id })
  })
})
