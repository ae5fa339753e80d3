import { GROUP_LISTS, type GroupChange, type NoticeName, type notices } from '../../../shared/ipc/contract.js'
import type { OutboxItem } from '../../../shared/ipc/views.js'
import type { z } from 'zod'

/** A group, as those who emit `group.changed` name it. */
export interface GroupKey {
  accountDid: string
  groupDid: string
}

/**
 * What those who emit a notice say. A group's and the outbox's notices name only what
 * moved (the core's describer, NoticeDetail, fills in how it now stands when the batch
 * goes out); the others are sent as they are.
 */
export interface NoticeInputs {
  'group.changed': GroupKey
  'groups.changed': z.input<(typeof notices)['groups.changed']>
  /** The account's outbox rows that changed; without `ids` the window reads the whole outbox again. */
  'outbox.changed': { accountDid?: string; ids?: readonly number[] }
  'sync.progress': z.input<(typeof notices)['sync.progress']>
  'account.state': z.input<(typeof notices)['account.state']>
  'today.changed': z.input<(typeof notices)['today.changed']>
}

/** How the core says what a batch's groups and outbox rows now look like (see reading/group-notices.ts). */
export interface NoticeDetail {
  /** Each group's summary now, and the lists that moved since its last notice. */
  groups(keys: GroupKey[]): Promise<GroupChange[]>
  /** The rows as they stand now, or null when some can no longer be found. */
  outboxItems(changed: { accountDid: string; ids: number[] }[]): Promise<OutboxItem[] | null>
}

/** Without a describer (or when it fails): the window is told to read the groups and lists again. */
const UNDESCRIBED: NoticeDetail = {
  groups: async (keys) => keys.map((k) => ({ ...k, summary: null, lists: [...GROUP_LISTS] })),
  outboxItems: async () => null,
}

/** One channel's notices of one turn of the event loop, merged, and how the one notice sent for them is made. */
interface Batch<N extends NoticeName> {
  add(input: NoticeInputs[N]): void
  payload(detail: NoticeDetail): Promise<unknown>
}

const groupBatch = (): Batch<'group.changed'> => {
  const keys = new Map<string, GroupKey>()
  return {
    add: ({ accountDid, groupDid }) => void keys.set(`${accountDid} ${groupDid}`, { accountDid, groupDid }),
    payload: async (detail) => ({ groups: await detail.groups([...keys.values()]).catch(() => UNDESCRIBED.groups([...keys.values()])) }),
  }
}

const outboxBatch = (): Batch<'outbox.changed'> => {
  let unknown = false
  const byAccount = new Map<string, Set<number>>()
  return {
    add: ({ accountDid, ids }) => {
      if (!accountDid || !ids) unknown = true
      else {
        const set = byAccount.get(accountDid) ?? new Set()
        for (const id of ids) set.add(id)
        byAccount.set(accountDid, set)
      }
    },
    payload: async (detail) => {
      if (unknown) return { items: [], readAll: true }
      const items = await detail.outboxItems([...byAccount].map(([accountDid, ids]) => ({ accountDid, ids: [...ids] }))).catch(() => null)
      return items ? { items, readAll: false } : { items: [], readAll: true }
    },
  }
}

/** The latest one stands for the turn (progress, the groups' list moved). */
const latestBatch = <N extends NoticeName>(): Batch<N> => {
  let latest: NoticeInputs[N] | undefined
  return { add: (input) => void (latest = input), payload: async () => latest }
}

const accountBatch = (): Batch<'account.state'> => {
  const dids = new Set<string | null>()
  return { add: ({ did }) => void dids.add(did ?? null), payload: async () => ({ did: dids.size === 1 ? [...dids][0]! : null }) }
}

const BATCHES: { [N in NoticeName]: () => Batch<N> } = {
  'group.changed': groupBatch,
  'groups.changed': latestBatch,
  'outbox.changed': outboxBatch,
  'sync.progress': latestBatch,
  'account.state': accountBatch,
  'today.changed': latestBatch,
}

/** The notices of one turn, by name, in the order each name was first emitted. */
export class NoticeTurn {
  private readonly batches = new Map<NoticeName, Batch<NoticeName>>()

  add<N extends NoticeName>(name: N, input: NoticeInputs[N]): void {
    let batch = this.batches.get(name) as Batch<N> | undefined
    if (!batch) this.batches.set(name, (batch = BATCHES[name]() as Batch<N>) as unknown as Batch<NoticeName>)
    batch.add(input)
  }

  /** Each name's one notice, as it goes out (before the contract's parse). */
  async *notices(detail: NoticeDetail = UNDESCRIBED): AsyncGenerator<{ name: NoticeName; payload: unknown }> {
    for (const [name, batch] of this.batches) yield { name, payload: await batch.payload(detail) }
  }
}
