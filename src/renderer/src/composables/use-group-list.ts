import { ref, watch, type Ref } from 'vue'
import type { ChannelOutput } from '../../../shared/ipc/contract'
import type { GroupSummary } from '../../../shared/ipc/views'
import { useApi } from '../ipc/use-api'
import { listOf, useGroupsStore } from '../stores/groups'

/** The short lists read whole (long ones go a page at a time: use-paged-list.ts). */
export type WholeListChannel = 'groups.events' | 'groups.spaces'

/**
 * One of a group's cached lists, read from the core again whenever the group changes or
 * a notice says this list of it moved. Errors are kept for the view to show.
 */
export function useGroupList<C extends WholeListChannel>(channel: C, group: () => GroupSummary) {
  const api = useApi()
  const store = useGroupsStore()
  const items = ref([]) as Ref<ChannelOutput<C>>
  const error = ref<string | null>(null)
  const loaded = ref(false)
  let latest = 0
  async function refresh() {
    const { accountDid, did: groupDid } = group()
    const asked = ++latest
    try {
      const read = (await api[channel]({ accountDid, groupDid })) as ChannelOutput<C>
      // A read for the group shown before, answered late, is not shown over this one's.
      if (asked !== latest) return
      items.value = read
      error.value = null
    } catch (err) {
      if (asked !== latest) return
      error.value = (err as Error).message
    } finally {
      if (asked === latest) loaded.value = true
    }
  }
  watch([() => `${group().accountDid} ${group().did}`, () => store.revisionOf(group().accountDid, group().did, listOf(channel))], () => void refresh(), { immediate: true })
  return { items, error, loaded }
}
