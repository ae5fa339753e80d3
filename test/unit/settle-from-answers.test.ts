import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db'
import { putItem, readItems } from '../../src/main/core/cache/items'
import { NoticeHub } from '../../src/main/core/ipc/notices'
import { GroupSyncing } from '../../src/main/core/sync/group-syncing'
import type { AccountRuntimes } from '../../src/main/core/groups/account-runtimes'
import type { ListPages } from '../../src/main/core/reading/list-pages'
import type { AccountRuntime } from '../../src/main/core/session/account-runtime'
import type { SettledAction } from '../../src/main/core/outbox/outbox'
import type { IdResolver } from '@atproto/identity'

/**
 * After our own action went out: an answer that says where its change went settles it
 * with no request to the host; an answer without (an older host) falls back to reading
 * the change log, as before. The host here is a fake that records what it is asked.
 */
const ME = 'did:plc:me'
const G = 'did:plc:group'
const ALICE = 'did:plc:alice'
const AT = '2026-03-01T12:00:00.000Z'

let dir: string
let cache: CacheDb
let asked: string[]
let log: { changes: { seq: number; kind: string; subject?: string; createdAt: string }[]; cursor: string }
let settled: SettledAction[]
let notices: string[]
let hub: NoticeHub
let syncing: GroupSyncing
let rt: AccountRuntime

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-settle-'))
  cache = await openCacheDb(dir, ME)
  await cache.insertInto('group_row').values({ did: G, view: JSON.stringify({ did: G, roles: [] }), hostUrl: 'http://host.test', hostAud: 'did:web:host.test', changeCursor: 'c1', syncedAt: AT }).execute()
  await putItem(cache, G, 'joinRequest', ALICE, { did: ALICE, id: 'req-1', handle: 'alice.test', message: null, createdAt: AT }, 7)
  asked = []
  log = { changes: [], cursor: 'c1' }
  notices = []
  const host = {
    query: async (method: string) => {
      asked.push(method)
      if (method === 'example.groups.listChanges') return log
      throw new Error(`not faked: ${method}`)
    },
  }
  rt = { did: ME, cache, hostOf: async () => host, outbox: { takeSettled: () => settled.splice(0), hasSettled: () => settled.length > 0, hostAnswered: () => settled.some((a) => a.state === 'done' || a.state === 'conflict') } } as unknown as AccountRuntime
  hub = new NoticeHub()
  hub.subscribe((n) => notices.push(n.name))
  const lists = { warm: () => {} } as unknown as ListPages
  syncing = new GroupSyncing({} as AccountRuntimes, lists, { idResolver: {} as IdResolver, resolveHandle: async () => null, hostFetch: fetch, notices: hub })
})
afterEach(async () => {
  await syncing.close()
  await cache.destroy()
  fs.rmSync(dir, { recursive: true, force: true })
})

const admitted = (answer: unknown): SettledAction => ({ id: 7, kind: 'joinRequest.decide', payload: { did: ALICE, decision: 'admit' }, state: 'done', answer })
const shown = async () => ({
  requests: (await readItems<{ did: string }>(cache, G, 'joinRequest')).map((r) => r.did),
  members: (await readItems<{ did: string; handle: string | null; joinedAt: string }>(cache, G, 'member')).map((m) => ({ did: m.did, handle: m.handle, pending: m.pending })),
})

describe('an action settles from its answer', () => {
  it('the answer carries the seq: settled with no request, the window told', async () => {
    settled = [admitted({ seq: 42 })]
    await syncing.afterSending(rt, G)
    expect(asked).toEqual([])
    expect(await shown()).toEqual({ requests: [], members: [{ did: ALICE, handle: 'alice.test', pending: false }] })
    await hub.delivered()
    expect(notices).toContain('group.changed')
  })

  it('its entries met later in the log are known as ours: no list is read again, the joining time is the host’s', async () => {
    settled = [admitted({ seq: 42 })]
    await syncing.afterSending(rt, G)
    log = {
      changes: [
        { seq: 41, kind: 'joinRequest.admitted', subject: 'req-1', createdAt: '2026-03-02T00:00:00.000Z' },
        { seq: 42, kind: 'member.joined', subject: ALICE, createdAt: '2026-03-02T00:00:00.000Z' },
      ],
      cursor: 'c2',
    }
    await syncing.catchUp(rt, G)
    // Only the log: a list read again would be a listJoinRequests or listMembers (not faked: it would throw).
    expect(asked).toEqual(['example.groups.listChanges'])
    const [member] = await readItems<{ joinedAt: string }>(cache, G, 'member')
    expect(member?.joinedAt).toBe('2026-03-02T00:00:00.000Z')
    const row = await cache.selectFrom('group_row').select('changeCursor').where('did', '=', G).executeTakeFirstOrThrow()
    expect(row.changeCursor).toBe('c2')
  })

  it('an older host’s answer (no seq): the change log is read, and settles it as before', async () => {
    settled = [admitted({})]
    log = { changes: [{ seq: 9, kind: 'member.joined', subject: ALICE, createdAt: AT }], cursor: 'c2' }
    await syncing.afterSending(rt, G)
    expect(asked).toEqual(['example.groups.listChanges'])
    expect(await shown()).toEqual({ requests: [], members: [{ did: ALICE, handle: 'alice.test', pending: false }] })
  })

  it('an answer that is not an object, or a seq that is not a count, is no answer', async () => {
    settled = [admitted({ seq: -1 }), { ...admitted('ok'), id: 8 }]
    await syncing.afterSending(rt, G)
    expect(asked).toEqual(['example.groups.listChanges'])
  })
})

describe('an action the host answered while a sync of its group was failing', () => {
  it('syncs the group again once that sync has failed, so the window does not keep saying it could not be synced', async () => {
    // The pass's read of the change log is under way while the host comes back; the
    // action's answer arrives first, then that read runs out of time.
    let failRead!: (err: Error) => void
    const host = {
      query: async (method: string) => {
        asked.push(method)
        if (method !== 'example.groups.listChanges') throw new Error(`not faked: ${method}`)
        if (asked.length === 1) return new Promise((_, reject) => (failRead = reject))
        return log
      },
    }
    const outbox = { ...rt.outbox, replay: async () => {}, endBackOffs: async () => {} }
    const runtime = { ...rt, hostOf: async () => host, outbox } as unknown as AccountRuntime
    const runtimes = { all: async () => [runtime], get: async () => runtime } as unknown as AccountRuntimes
    await syncing.close()
    syncing = new GroupSyncing(runtimes, { warm: () => {} } as unknown as ListPages, { idResolver: {} as IdResolver, resolveHandle: async () => null, hostFetch: fetch, notices: hub })
    const phase = () => syncing.status().groups.find((g) => g.groupDid === G)?.phase

    const pass = syncing.syncAll()
    await vi.waitFor(() => expect(asked).toEqual(['example.groups.listChanges']))
    settled = [admitted({ seq: 42 })]
    const after = syncing.afterSending(runtime, G)
    failRead(new Error('no answer within 2000 ms'))
    await pass
    await after
    expect(asked).toEqual(['example.groups.listChanges', 'example.groups.listChanges'])
    expect(phase()).not.toBe('failed')
  })
})
