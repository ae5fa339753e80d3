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

/**
 * Dismisses a change that was not applied, for good: the core removes it from the
 * outbox (outbox.dismiss), so it is gone from every view and after a restart. It is
 * hidden at once, and for the session if the core could not be told (it is then still
 * listed on the pending changes page, where Dismiss can be tried again).
 */
export async function dismissProblem(problem: OutboxItem) {
  const next = new Set(dismissed.value)
  next.add(problem.id)
  dismissed.value = next
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...next]))
  } catch {
    // Storage refused (private mode): the notice is hidden until the window reloads.
  }
  await useGroupsStore()
    .dismissChange(problem)
    .catch(() => {})
}

/**
 * Changes the host did not apply (conflicts, failures), by whom they were about, so a
 * view can say so beside that person or report. The full list stays on the pending
 * changes page; a notice dismissed here is removed for good (dismissProblem).
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
