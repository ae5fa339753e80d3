import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { recordRequests } from '../../support/request-log.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'
import { startLoopbackShell, type LoopbackShell } from '../../../src/main/loopback/server.js'
import type { Notice } from '../../../src/shared/ipc/contract.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

useSignedInCore(net, { groups: ['open', 'approval'] }, (signedIn) => ({ app, owner } = signedIn))

/** Every request this process makes (the core runs in it), by where it went. */
const seen = recordRequests()

/** Host and PDS requests made while `fn` ran. */
async function counted(fn: () => Promise<unknown>) {
  const from = seen.length
  await fn()
  const made = seen.slice(from)
  const pds = [net.stack.pds, net.stack.pds.replace('127.0.0.1', 'localhost')]
  return {
    host: made.filter((r) => r.origin === net.stack.host.url),
    pds: made.filter((r) => pds.includes(r.origin)),
  }
}

const settled = async () =>
  eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state !== 'queued' && o.state !== 'sending'))

describe('incremental sync from the change log, counted against the real host', () => {
  it('a cursor the host no longer knows is replaced by the whole read it causes, so the next sync is one request again', async () => {
    const open = net.group('open').did
    const rt = await app.core.groups.runtime(owner)
    await rt.cache.updateTable('group_row').set({ changeCursor: 'not-a-cursor' }).where('did', '=', open).execute()
    await app.call('sync.now', {}) // refused cursor: the group is read whole
    const { host } = await counted(() => app.call('sync.now', {}))
    expect(host.map((r) => r.method)).toEqual(['example.groups.listChanges', 'example.groups.listChanges'])
  })

  it('a sync that finds nothing new costs one host request per group and no PDS request', async () => {
    await app.call('sync.now', {}) // settles whatever adding the groups left
    const { host, pds } = await counted(() => app.call('sync.now', {}))
    expect(host.map((r) => r.method)).toEqual(['example.groups.listChanges', 'example.groups.listChanges'])
    expect(pds).toEqual([])
  })

  it('an admission is applied from what was sent and what the host answered (its seq): 1 host request, 0 PDS, no list read again', async () => {
    const approval = net.group('approval').did
    // Two people ask; the first decision pays for the service-auth token.
    for (const who of ['outsider', 'outsider2'] as const) await net.as(who).call('example.groups.requestJoin', { body: { group: approval, message: `hi from ${who}` } })
    await app.call('sync.now', {})
    await app.call('groups.act', { accountDid: owner, groupDid: approval, action: { kind: 'joinRequest.decide', did: net.as('outsider').did, decision: 'admit' } })
    await settled()
    // The sync above also reads the two new people's profiles and faces from their PDS, in
    // the background: done before counting, or their avatars land in the count (seen once).
    await app.core.groups.syncing.idle()

    const did = net.as('outsider2').did
    const { host, pds } = await counted(async () => {
      await app.call('groups.act', { accountDid: owner, groupDid: approval, action: { kind: 'joinRequest.decide', did, decision: 'admit' } })
      await settled()
      // The catch-up after the send finishes in the background.
      await eventually(async () => (await app.call('groups.members', { accountDid: owner, groupDid: approval, q: did })).items.some((m) => m.did === did && !m.pending))
    })
    // The host's answer names the change it recorded, so the change log is not read to learn it.
    expect(host.map((r) => r.method)).toEqual(['example.groups.admitMember'])
    expect(pds).toEqual([])
    // The window shows the result a peer would see: the request is gone, the person is a member.
    expect((await app.call('groups.joinRequests', { accountDid: owner, groupDid: approval })).items.some((r) => r.did === did)).toBe(false)
    // A later sync finds nothing new: our own changes were taken in.
    const again = await counted(() => app.call('sync.now', {}))
    expect(again.host).toHaveLength(2)
  })

  it('a change made elsewhere is read from only the list it names, and announced to the window', async () => {
    const approval = net.group('approval').did
    const notices: Notice[] = []
    const unsubscribe = app.core.notices.subscribe((n) => notices.push(n))
    try {
      await net.as('member').call('example.groups.leaveGroup', { body: { group: approval } }).catch(() => {})
      const { host } = await counted(() => app.call('sync.now', {}))
      const methods = host.map((r) => r.method)
      expect(methods).toContain('example.groups.listMembers')
      expect(methods).not.toContain('example.groups.getGroup')
      expect(methods).not.toContain('example.groups.listInvites')
      expect(methods).not.toContain('example.groups.listJoinRequests')
      await app.core.notices.delivered()
      // The notice names the one list that moved and carries the group's summary, so the window reads nothing else.
      const changed = notices.flatMap((n) => (n.name === 'group.changed' ? n.payload.groups : [])).filter((g) => g.groupDid === approval && g.accountDid === owner)
      expect(new Set(changed.flatMap((g) => g.lists))).toEqual(new Set(['members']))
      expect(changed.at(-1)!.summary).toEqual((await app.call('groups.list', {})).find((g) => g.did === approval && g.accountDid === owner))
      expect(notices.some((n) => n.name === 'sync.progress')).toBe(true)
      expect((await app.call('groups.members', { accountDid: owner, groupDid: approval, q: net.as('member').did })).items).toEqual([])
    } finally {
      unsubscribe()
    }
  })
})

describe('notices over the loopback shell', () => {
  let shell: LoopbackShell | undefined
  const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-renderer-'))
  afterAll(async () => {
    await shell?.close()
    fs.rmSync(rendererDir, { recursive: true, force: true })
  })

  it('streams typed notices to the page that holds the launch secret, and refuses anyone else', async () => {
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Convene</title>')
    shell = await startLoopbackShell({ handlers: app.core.handlers, rendererDir, notices: app.core.notices })
    const secret = new URL(shell.launchUrl).hash.replace('#launch=', '')
    const headers = { origin: shell.origin, authorization: `Bearer ${secret}`, 'content-type': 'application/json' }

    expect((await fetch(`${shell.origin}/notices`, { method: 'POST', headers: { ...headers, authorization: 'Bearer nope' }, body: '{}' })).status).toBe(401)
    expect((await fetch(`${shell.origin}/notices`, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body: '{}' })).status).toBe(403)

    const abort = new AbortController()
    const res = await fetch(`${shell.origin}/notices`, { method: 'POST', headers, body: '{}', signal: abort.signal })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    // Someone asks to join elsewhere; the sync that sees it tells the page which group moved.
    const approval = net.group('approval').did
    await net.as('member').call('example.groups.requestJoin', { body: { group: approval } }).catch(() => {})
    const started = Date.now()
    await app.call('sync.now', {})
    const syncEnded = Date.now()
    while (!text.includes('"group.changed"')) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    abort.abort()
    expect(Date.now() - syncEnded).toBeLessThan(2_000)
    expect(Date.now() - started).toBeLessThan(15_000)
    const events = text
      .split('\n\n')
      .filter((e) => e.startsWith('event: notice'))
      .map((e) => JSON.parse(e.split('data: ')[1]!) as Notice)
    expect(events.flatMap((e) => (e.name === 'group.changed' ? e.payload.groups : []))).toContainEqual(expect.objectContaining({ accountDid: owner, groupDid: approval, lists: expect.arrayContaining(['joinRequests']) }))
    // Nothing but the contract's keys crosses.
    for (const e of events) expect(Object.keys(e).sort()).toEqual(['name', 'payload'])
  })
})
