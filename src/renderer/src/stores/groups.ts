import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { ChannelInput, GroupChange, GroupList, Notice } from '../../../shared/ipc/contract'
import type { GroupSummary, OutboxItem, SyncStatus } from '../../../shared/ipc/views'
import { useApi } from '../ipc/use-api'
import { ERROR_MESSAGES } from '../../../shared/errors'

export type GroupAction = ChannelInput<'groups.act'>['action']

/** The list a channel reads (`groups.members` reads the members list): what a notice names. */
export const listOf = (channel: `groups.${GroupList}`) => channel.slice('groups.'.length) as GroupList

const groupKey = (accountDid: string, groupDid: string) => `${accountDid} ${groupDid}`
export const outboxKey = (o: Pick<OutboxItem, 'accountDid' | 'id'>) => `${o.accountDid} ${o.id}`
/** How many sent items `sent` remembers: a few bulk actions' worth. */
const SENT_KEPT = 20_000
/** A set past SENT_KEPT loses its oldest (a Set keeps the order things were added in). */
function trimmed(set: Set<string>): Set<string> {
  if (set.size <= SENT_KEPT) return set
  return new Set([...set].slice(set.size - SENT_KEPT))
}

/** How often "today" is looked at again, for views that keep a clock (the calendar). */
const CLOCK_MS = 60_000

/**
 * The organizer's groups across every account, and the outbox. Everything here is read
 * from the core's cache, so it shows at once, offline too, and kept up to date from the
 * core's notices, which carry the changed summaries and outbox items and name the lists
 * that moved (no polling, and no reading again after the window's own actions).
 */
export const useGroupsStore = defineStore('groups', () => {
  const api = useApi()
  const groups = ref<GroupSummary[]>([])
  const outbox = ref<OutboxItem[]>([])
  /**
   * Outbox items seen reaching the host in this window's life (by outboxKey), so a bulk
   * action can say per row that it was done (composables/use-bulk-results.ts); the
   * oldest go past SENT_KEPT.
   */
  const sent = shallowRef(new Set<string>())
  const loaded = ref(false)
  const error = ref<string | null>(null)
  const syncing = ref(false)
  /** The core's sync, group by group: progress while one runs, and what failed last time. */
  const sync = ref<SyncStatus>({ running: false, groups: [], live: [] })
  /**
   * Per group and list, bumped when a notice says that list changed, so an open list
   * reloads then, and not when another list or group changed (a 10,000-member list is
   * not re-read for an admission). `${group} *` moves every list of the group.
   */
  const revisions = ref(new Map<string, number>())
  const seenByGroup = new Map<string, string>()
  /** Bumped once a minute, for views that keep a clock (the calendar's "today"). */
  const tick = ref(0)
  let lastGroups = ''
  let lastOutbox = ''
  let unsubscribe: (() => void) | undefined

  /** Reads the groups' summaries; only those that changed move their revision. */
  async function readGroups() {
    const g = await api['groups.list']({})
    const seen = JSON.stringify(g)
    if (seen === lastGroups) return
    lastGroups = seen
    groups.value = g
    noteChanges(g)
  }
  async function readOutbox() {
    const o = await api['outbox.list']({})
    const seen = JSON.stringify(o)
    if (seen === lastOutbox) return
    lastOutbox = seen
    outbox.value = o
  }

  /** Reads everything once: at start, after adding or finding groups, and after a failed read. */
  async function reload() {
    await guarded(async () => {
      const [, , st] = await Promise.all([readGroups(), readOutbox(), api['sync.status']({})])
      sync.value = st
    })
  }

  async function guarded(read: () => Promise<void>) {
    try {
      await read()
      error.value = null
    } catch (err) {
      error.value = (err as Error).message
    } finally {
      loaded.value = true
    }
  }

  /** What each notice names, and only that, is read again. */
  function onNotice(notice: Notice) {
    switch (notice.name) {
      case 'group.changed':
        takeGroupChanges(notice.payload.groups)
        break
      case 'groups.changed':
        void guarded(readGroups)
        break
      case 'outbox.changed':
        if (notice.payload.readAll) void guarded(readOutbox)
        else takeOutboxItems(notice.payload.items)
        break
      case 'sync.progress':
        sync.value = notice.payload
        break
      case 'account.state':
        break
    }
  }

  /** The summaries a notice carries take their place; the lists it names move. A group not known yet, or one the core could not describe, is read with the rest. */
  function takeGroupChanges(changes: GroupChange[]) {
    const next = new Map(revisions.value)
    const shown = [...groups.value]
    let readAll = false
    for (const change of changes) {
      const key = groupKey(change.accountDid, change.groupDid)
      for (const list of change.lists) next.set(`${key} ${list}`, (next.get(`${key} ${list}`) ?? 0) + 1)
      const at = shown.findIndex((g) => g.accountDid === change.accountDid && g.did === change.groupDid)
      if (!change.summary || at < 0) readAll = true
      else {
        shown[at] = change.summary
        seenByGroup.set(key, JSON.stringify(change.summary))
      }
    }
    revisions.value = next
    groups.value = shown
    lastGroups = JSON.stringify(shown)
    if (readAll) void guarded(readGroups)
  }

  /** Outbox items as they now stand: a sent one leaves, a new one joins the end. */
  function takeOutboxItems(items: OutboxItem[]) {
    const byKey = new Map(outbox.value.map((o) => [outboxKey(o), o]))
    let sentNow: Set<string> | null = null
    for (const item of items) {
      if (item.state === 'done') {
        byKey.delete(outboxKey(item))
        ;(sentNow ??= new Set(sent.value)).add(outboxKey(item))
      } else byKey.set(outboxKey(item), item)
    }
    if (sentNow) sent.value = trimmed(sentNow)
    outbox.value = [...byKey.values()]
    lastOutbox = '' // not worth stringifying thousands of items per notice: the next whole read is taken as new
  }

  /** After a whole read: a group whose summary changed may have any list changed. */
  function noteChanges(g: GroupSummary[]) {
    const next = new Map(revisions.value)
    for (const summary of g) {
      const key = groupKey(summary.accountDid, summary.did)
      const seen = JSON.stringify(summary)
      if (seenByGroup.get(key) === seen) continue
      seenByGroup.set(key, seen)
      next.set(`${key} *`, (next.get(`${key} *`) ?? 0) + 1)
    }
    revisions.value = next
  }
  /** Moves when this list of this group may have changed (see `revisions`). */
  const revisionOf = (accountDid: string, groupDid: string, list: GroupList) => {
    const key = groupKey(accountDid, groupDid)
    return (revisions.value.get(`${key} *`) ?? 0) + (revisions.value.get(`${key} ${list}`) ?? 0)
  }

  function start() {
    if (unsubscribe) return
    unsubscribe = api.onNotice(onNotice)
    void reload()
    setInterval(() => {
      tick.value++
      // No notice may come to end a failed read (the core was busy or closing): try again.
      if (error.value) void reload()
    }, CLOCK_MS)
  }

  async function syncNow() {
    syncing.value = true
    try {
      await api['sync.now']({})
    } finally {
      syncing.value = false
    }
  }

  /** Accounts whose groups are being looked for on the hosts the app knows (after sign-in, on start). */
  const finding = ref(new Set<string>())
  const searched = new Set<string>()
  /** Once per account per window: the groups where it holds a role, added to its list. */
  async function findMine(accountDids: string[]) {
    const fresh = accountDids.filter((did) => !searched.has(did))
    if (!fresh.length) return
    for (const did of fresh) searched.add(did)
    finding.value = new Set([...finding.value, ...fresh])
    await Promise.all(
      fresh.map((accountDid) =>
        api['groups.findMine']({ accountDid })
          .catch(() => searched.delete(accountDid)) // asked again next time (e.g. offline now)
          .finally(() => {
            const next = new Set(finding.value)
            next.delete(accountDid)
            finding.value = next
          }),
      ),
    )
    await reload()
  }

  async function add(accountDid: string, ref: string) {
    const group = await api['groups.add']({ accountDid, ref })
    await reload()
    return group
  }

  async function create(input: ChannelInput<'groups.create'>) {
    const group = await api['groups.create'](input)
    await reload()
    return group
  }

  /**
   * Queues an action: one call. Nothing is read again after it: the core's notices of
   * the same moment carry the new outbox item and the group's summary and name the
   * lists its cached effect moved (and later, the sending and the confirmation).
   * `hold` (ms) keeps it back in the core before it is sent, for Undo. Answers its outbox id.
   */
  async function act(accountDid: string, groupDid: string, action: GroupAction, hold?: number): Promise<number> {
    const { outboxId } = await api['groups.act']({ accountDid, groupDid, action, ...(hold ? { hold } : {}) })
    return outboxId
  }

  /** Several actions queued as one (all or none), one call, announced as `act`'s are. Answers their outbox ids, in order. */
  async function actMany(accountDid: string, groupDid: string, actions: GroupAction[], hold?: number): Promise<number[]> {
    const { outboxIds } = await api['groups.actMany']({ accountDid, groupDid, actions, ...(hold ? { hold } : {}) })
    return outboxIds
  }

  /**
   * The person's controls on one pending change (the core checks each is allowed and
   * answers plain words when not). The change leaves the list at once; the core's
   * notice confirms it (and names the lists its cancelled effect moved).
   */
  async function cancelChange(item: Pick<OutboxItem, 'accountDid' | 'id'>) {
    await api['outbox.cancel']({ accountDid: item.accountDid, id: item.id })
    forget(item)
  }
  async function retryChange(item: OutboxItem) {
    await api['outbox.retry']({ accountDid: item.accountDid, id: item.id })
  }
  async function dismissChange(item: OutboxItem) {
    await api['outbox.dismiss']({ accountDid: item.accountDid, id: item.id })
    forget(item)
  }
  function forget(item: Pick<OutboxItem, 'accountDid' | 'id'>) {
    outbox.value = outbox.value.filter((o) => outboxKey(o) !== outboxKey(item))
    lastOutbox = ''
  }

  const find = (accountDid: string, groupDid: string) => groups.value.find((g) => g.accountDid === accountDid && g.did === groupDid)
  /** Actions still waiting to reach a host (offline, host down, sign-in ended). */
  const waiting = computed(() => outbox.value.filter((o) => o.state === 'queued' || o.state === 'sending'))
  const problems = computed(() => outbox.value.filter((o) => o.state === 'conflict' || o.state === 'failed'))
  /** Offline when something waits after having been tried. */
  const offline = computed(() => waiting.value.some((o) => o.attempts > 0 && o.detail))
  /**
   * The groups whose host did not answer or could not be reached on the last try, with
   * how many of their changes wait for it: said in a line of their own, not only per change.
   */
  const hostsWaiting = computed(() => {
    // Only a group's first change is tried; the ones behind it wait for the same host.
    const by = new Map<string, { accountDid: string; groupDid: string; why: 'notAnswering' | 'unreachable' | null; count: number }>()
    for (const o of waiting.value) {
      const why = o.detail === ERROR_MESSAGES.HostNotAnswering ? 'notAnswering' : o.detail === ERROR_MESSAGES.HostUnreachable ? 'unreachable' : null
      const key = groupKey(o.accountDid, o.groupDid)
      const seen = by.get(key) ?? { accountDid: o.accountDid, groupDid: o.groupDid, why: null, count: 0 }
      seen.count++
      seen.why ??= why
      by.set(key, seen)
    }
    return [...by.values()].flatMap((g) => (g.why ? [{ ...g, why: g.why }] : []))
  })

  /** The state of one group's last or current sync. */
  const syncOf = (accountDid: string, groupDid: string) => sync.value.groups.find((s) => s.accountDid === accountDid && s.groupDid === groupDid)

  return { groups, outbox, sent, loaded, error, syncing, sync, syncOf, revisionOf, tick, waiting, problems, offline, hostsWaiting, reload, start, syncNow, add, create, act, actMany, cancelChange, retryChange, dismissChange, find, finding, findMine }
})
