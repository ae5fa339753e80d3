import { ref, watch, type Ref } from 'vue'
import { useGroupsStore } from '../stores/groups'

/**
 * One of a group's cached lists (join requests, members…), reloaded whenever the group
 * changes or the store sees news. Errors are kept for the view to show.
 */
export function useGroupList<T>(load: () => Promise<T[]>, key: () => string) {
  const store = useGroupsStore()
  const items = ref([]) as Ref<T[]>
  const error = ref<string | null>(null)
  const loaded = ref(false)
  async function refresh() {
    try {
      items.value = await load()
      error.value = null
    } catch (err) {
      error.value = (err as Error).message
    } finally {
      loaded.value = true
    }
  }
  watch([key, () => store.revision], () => void refresh(), { immediate: true })
  return { items, error, loaded, refresh }
}
