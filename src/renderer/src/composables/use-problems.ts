import { computed, ref } from 'vue'
import type { GroupSummary, OutboxItem } from '../../../shared/ipc/views'
import { useGroupsStore } from '../stores/groups'

const STORAGE_KEY = 'convene.dismissedProblems'

function loadDismissed(): Set<number> {
  try {
    return new Set((JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as unknown[]).filter((n): n is number => typeof n === 'number'))
  } catch {
    return new Set()
  }
}
/** Shared by every view, so a notice dismissed in one is gone in all. */
const dismissed = ref<Set<number>>(loadDismissed())

/** Hides a notice for the rest of the session, in every view (needs no view's context). */
export function dismissProblem(id: number) {
  const next = new Set(dismissed.value)
  next.add(id)
  dismissed.value = next
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...next]))
  } catch {
    // Storage refused (private mode): the notice is hidden until the window reloads.
  }
}

/**
 * Changes the host did not apply (conflicts, failures), by whom they were about, so a
 * view can say so beside that person or report. The full list stays on the pending
 * changes page; a notice dismissed here is hidden for the rest of the session.
 */
export function useProblems(group: () => GroupSummary) {
  const store = useGroupsStore()
  /** This account's problems in this group, not dismissed, oldest first. */
  const problems = computed(() => {
    const g = group()
    return store.problems.filter((o) => o.accountDid === g.accountDid && o.groupDid === g.did && !dismissed.value.has(o.id))
  })
  /** The latest problem about each person or report. */
  const byTarget = computed(() => {
    const map = new Map<string, OutboxItem>()
    for (const o of problems.value) if (o.target) map.set(o.target, o)
    return map
  })
  return { problems, problemFor: (target: string) => byTarget.value.get(target) }
}
