import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { ChannelInput } from '../../../shared/ipc/contract'
import type { GroupSummary, OutboxItem, SyncStatus } from '../../../shared/ipc/views'
import { useApi } from '../ipc/use-api'

export type GroupAction = ChannelInput<'groups.act'>['action']

const groupKey = (accountDid: string, groupDid: string) => `${accountDid} ${groupDid}`

/** How often the window re-reads the core's cache (no network: the core syncs on its own). */
const POLL_MS = 3_000
/** How often a sync under way is looked at, so its progress moves. */
const PROGRESS_POLL_MS = 400

/**
 * The organizer's groups across every account, and the outbox. Everything here is read
 * from the core's cache, so it shows at once, offline too.
 */
export const useGroupsStore = defineStore('groups', () => {
  const api = useApi()
  const groups = ref<GroupSummary[]>([])
  const outbox = ref<OutboxItem[]>([])
  const loaded = ref(false)
  const error = ref<string | null>(null)
  const syncing = ref(false)
  /** The core's sync, group by group: progress while one runs, and what failed last time. */
  const sync = ref<SyncStatus>({ running: false, groups: [] })
  let progressTimer: ReturnType<typeof setTimeout> | undefined
  /**
   * Per group, bumped when its summary or its queued actions changed since the last
   * read, so its open lists reload then, not on every poll, and not when another group
   * changed (a 10,000-member list is not re-read every 3 s for nothing). Any write to a
   * group's cached lists moves its summary's listsRevision, and every queued action
   * shows in the outbox, so no change goes unnoticed.
   */
  const revisions = ref(new Map<string, number>())
  const seenByGroup = new Map<string, string>()
  /** Bumped on every read, for views that keep a clock (the calendar's "today"). */
  const tick = ref(0)
  let lastSeen = ''
  let timer: ReturnType<typeof setInterval> | undefined

  async function reload() {
    try {
      const [g, o, st] = await Promise.all([api['groups.list']({}), api['outbox.list']({}), api['sync.status']({})])
      sync.value = st
      if (st.running) followProgress()
      error.value = null
      tick.value++
      // Unchanged lists keep their objects, so nothing that shows them renders again.
      const seen = JSON.stringify([g, o])
      if (seen !== lastSeen) {
        lastSeen = seen
        groups.value = g
        outbox.value = o
        noteChanges(g, o)
      }
    } catch (err) {
      error.value = (err as Error).message
    } finally {
      loaded.value = true
    }
  }

  function noteChanges(g: GroupSummary[], o: OutboxItem[]) {
    const next = new Map(revisions.value)
    for (const summary of g) {
      const key = groupKey(summary.accountDid, summary.did)
      const seen = JSON.stringify([summary, o.filter((item) => item.accountDid === summary.accountDid && item.groupDid === summary.did)])
      if (seenByGroup.get(key) === seen) continue
      seenByGroup.set(key, seen)
      next.set(key, (next.get(key) ?? 0) + 1)
    }
    revisions.value = next
  }
  /** Moves when this group's cached lists may have changed (see `revisions`). */
  const revisionOf = (accountDid: string, groupDid: string) => revisions.value.get(groupKey(accountDid, groupDid)) ?? 0

  /** While a sync runs, reads its progress often; when it ends, reads everything once. */
  function followProgress() {
    if (progressTimer) return
    progressTimer = setTimeout(async () => {
      progressTimer = undefined
      try {
        sync.value = await api['sync.status']({})
      } catch {
        return
      }
      // A "Sync now" may not have started its pass yet: keep looking until it returns.
      if (sync.value.running || syncing.value) followProgress()
      else await reload()
    }, PROGRESS_POLL_MS)
  }

  function start() {
    if (timer) return
    void reload()
    timer = setInterval(reload, POLL_MS)
  }

  async function syncNow() {
    syncing.value = true
    try {
      const done = api['sync.now']({})
      followProgress()
      await done
    } finally {
      syncing.value = false
      // The pass is over: read once now, not once more when the progress timer fires.
      clearTimeout(progressTimer)
      progressTimer = undefined
      await reload()
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

  async function act(accountDid: string, groupDid: string, action: GroupAction) {
    await api['groups.act']({ accountDid, groupDid, action })
    await afterActing()
  }

  /** Several actions queued as one (all or none), with one reload after. */
  async function actMany(accountDid: string, groupDid: string, actions: GroupAction[]) {
    await api['groups.actMany']({ accountDid, groupDid, actions })
    await afterActing()
  }

  async function afterActing() {
    await reload()
    // The outbox sends in the background; look again shortly for the result.
    setTimeout(() => void reload(), 600)
  }

  const find = (accountDid: string, groupDid: string) => groups.value.find((g) => g.accountDid === accountDid && g.did === groupDid)
  /** Actions still waiting to reach a host (offline, host down, sign-in ended). */
  const waiting = computed(() => outbox.value.filter((o) => o.state === 'queued' || o.state === 'sending'))
  const problems = computed(() => outbox.value.filter((o) => o.state === 'conflict' || o.state === 'failed'))
  /** Offline when something waits after having been tried. */
  const offline = computed(() => waiting.value.some((o) => o.attempts > 0 && o.detail))

  /** The state of one group's last or current sync. */
  const syncOf = (accountDid: string, groupDid: string) => sync.value.groups.find((s) => s.accountDid === accountDid && s.groupDid === groupDid)

  return { groups, outbox, loaded, error, syncing, sync, syncOf, revisionOf, tick, waiting, problems, offline, reload, start, syncNow, add, create, act, actMany, find, finding, findMine }
})
