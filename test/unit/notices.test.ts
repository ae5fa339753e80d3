import { describe, expect, it } from 'vitest'
import { NoticeHub, type NoticeDetail } from '../../src/main/core/ipc/notices.js'
import { GROUP_LISTS, type Notice } from '../../src/shared/ipc/contract.js'
import type { OutboxItem } from '../../src/shared/ipc/views.js'

const A = 'did:plc:account'
const G1 = 'did:plc:groupone'
const G2 = 'did:plc:grouptwo'

const item = (id: number, state: OutboxItem['state']): OutboxItem => ({
  id,
  accountDid: A,
  groupDid: G1,
  kind: 'joinRequest.decide',
  label: 'Admit',
  state,
  attempts: 0,
  detail: null,
  target: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  heldUntil: null,
})

function hub(detail?: Partial<NoticeDetail>) {
  const notices = new NoticeHub()
  if (detail) notices.describeWith({ groups: async () => [], outboxItems: async () => null, ...detail })
  const heard: Notice[] = []
  notices.subscribe((n) => heard.push(n))
  return { notices, heard }
}

describe('the core’s notices', () => {
  it('what one turn emits goes out as one notice per name, merged, in the order the names were first emitted', async () => {
    const asked: { groups: string[][]; outbox: { accountDid: string; ids: number[] }[][] } = { groups: [], outbox: [] }
    const { notices, heard } = hub({
      groups: async (keys) => {
        asked.groups.push(keys.map((k) => k.groupDid))
        return keys.map((k) => ({ ...k, summary: null, lists: ['joinRequests'] }))
      },
      outboxItems: async (changed) => {
        asked.outbox.push(changed)
        return changed.flatMap((c) => c.ids.map((id) => item(id, 'sending')))
      },
    })
    notices.emit('outbox.changed', { accountDid: A, ids: [1, 2] })
    notices.emit('group.changed', { accountDid: A, groupDid: G1 })
    notices.emit('group.changed', { accountDid: A, groupDid: G2 })
    notices.emit('group.changed', { accountDid: A, groupDid: G1 })
    notices.emit('outbox.changed', { accountDid: A, ids: [2, 3] })
    notices.emit('account.state', { did: A })
    notices.emit('account.state', { did: 'did:plc:other' })
    expect(heard).toEqual([]) // nothing goes out before the turn ends
    await notices.delivered()

    expect(heard.map((n) => n.name)).toEqual(['outbox.changed', 'group.changed', 'account.state'])
    expect(asked).toEqual({ groups: [[G1, G2]], outbox: [[{ accountDid: A, ids: [1, 2, 3] }]] })
    expect(heard[0]!.payload).toEqual({ items: [item(1, 'sending'), item(2, 'sending'), item(3, 'sending')], readAll: false })
    expect(heard[1]!.payload).toEqual({ groups: [G1, G2].map((groupDid) => ({ accountDid: A, groupDid, summary: null, lists: ['joinRequests'] })) })
    // Two accounts moved: the window reads the accounts again either way.
    expect(heard[2]!.payload).toEqual({ did: null })

    // The next turn is a notice of its own.
    notices.emit('group.changed', { accountDid: A, groupDid: G2 })
    await notices.delivered()
    expect(heard).toHaveLength(4)
  })

  it('says "read it all again" when it cannot say what changed: no rows named, no describer, or a describer that failed', async () => {
    const bare = hub()
    bare.notices.emit('outbox.changed', { accountDid: A, ids: [1] })
    bare.notices.emit('group.changed', { accountDid: A, groupDid: G1 })
    await bare.notices.delivered()
    expect(bare.heard.map((n) => n.payload)).toEqual([
      { items: [], readAll: true },
      { groups: [{ accountDid: A, groupDid: G1, summary: null, lists: [...GROUP_LISTS] }] },
    ])

    const failing = hub({
      groups: async () => {
        throw new Error('cache closed')
      },
      outboxItems: async () => [item(1, 'done')],
    })
    failing.notices.emit('group.changed', { accountDid: A, groupDid: G1 })
    failing.notices.emit('outbox.changed', { accountDid: A, ids: [1] })
    failing.notices.emit('outbox.changed', {}) // someone who could not say which rows
    await failing.notices.delivered()
    expect(failing.heard.map((n) => n.payload)).toEqual([
      { groups: [{ accountDid: A, groupDid: G1, summary: null, lists: [...GROUP_LISTS] }] },
      { items: [], readAll: true },
    ])
  })

  it('the latest progress of a turn stands for it', async () => {
    const { notices, heard } = hub()
    notices.emit('sync.progress', { running: true, groups: [], live: [] })
    notices.emit('sync.progress', { running: false, groups: [], live: [] })
    await notices.delivered()
    expect(heard).toEqual([{ name: 'sync.progress', payload: { running: false, groups: [], live: [] } }])
  })
})
