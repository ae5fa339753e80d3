import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { ChannelInput } from '../../../shared/ipc/contract'
import type { GroupSummary, OutboxItem } from '../../../shared/ipc/views'
import { useApi } from '../ipc/use-api'

export type GroupAction = ChannelInput<'groups.act'>['action']

/** How often the window re-reads the core's cache (no network: the core syncs on its own). */
const POLL_MS = 3_000

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
  /**
   * Bumped when the groups or the outbox changed since the last read, so open views
   * reload their lists then, not on every poll (a 10,000-member list is not re-read
   * every 3 s for nothing). Every refresh from a host moves a group's syncedAt, and
   * every queued action shows in the outbox, so no change goes unnoticed.
   */
  const revision = ref(0)
  /** Bumped on every read, for views that keep a clock (the calendar's "today"). */
  const tick = ref(0)
  let lastSeen = ''
  let timer: ReturnType<typeof setInterval> | undefined

  async function reload() {
    try {
      const [g, o] = await Promise.all([api['groups.list']({}), api['outbox.list']({})])
      groups.value = g
      outbox.value = o
      error.value = null
      tick.value++
      const seen = JSON.stringify([g, o])
      if (seen !== lastSeen) {
        lastSeen = seen
        revision.value++
      }
    } catch (err) {
      error.value = (err as Error).message
    } finally {
      loaded.value = true
    }
  }

  function start() {
    if (timer) return
    void reload()
    timer = setInterval(reload, POLL_MS)
  }

  async function syncNow() {
    syncing.value = true
    try {
      await api['sync.now']({})
    } finally {
      syncing.value = false
      await reload()
    }
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

  return { groups, outbox, loaded, error, syncing, revision, tick, waiting, problems, offline, reload, start, syncNow, add, create, act, find }
})
