import { ref } from 'vue'
import type { GroupSummary } from '../../../shared/ipc/views'
import { useGroupsStore, type GroupAction } from '../stores/groups'

/**
 * Organizer actions on one group, with the last one's error kept for the view to show
 * in plain words (the core already phrases them). Each returns whether it was queued.
 */
export function useGroupActions(group: () => GroupSummary) {
  const store = useGroupsStore()
  const error = ref<string | null>(null)

  async function run(fn: () => Promise<unknown>): Promise<boolean> {
    error.value = null
    try {
      await fn()
      return true
    } catch (err) {
      error.value = (err as Error).message
      return false
    }
  }
  const act = (action: GroupAction) => run(() => store.act(group().accountDid, group().did, action))
  const actMany = (actions: GroupAction[]) => run(() => store.actMany(group().accountDid, group().did, actions))
  return { error, run, act, actMany }
}
