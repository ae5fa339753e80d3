import { ref, watch } from 'vue'
import type { GroupSummary } from '../../../shared/ipc/views'
import { groupName } from './display'

const supported = typeof Notification !== 'undefined'

/**
 * OS notifications (where the shell has them) when a group gets new join requests or
 * reports: compared with what the window last saw, never for what it showed at start.
 */
export function useNotifications(groups: () => GroupSummary[]) {
  const permission = ref<NotificationPermission | 'unsupported'>(supported ? Notification.permission : 'unsupported')
  let seen: Map<string, { requests: number; subjects: number }> | null = null

  watch(groups, (list) => {
    const next = new Map(list.map((g) => [`${g.accountDid} ${g.did}`, { requests: g.pendingRequests, subjects: g.openSubjects }]))
    if (seen && permission.value === 'granted') {
      for (const g of list) {
        const before = seen.get(`${g.accountDid} ${g.did}`)
        if (!before) continue
        const name = groupName(g)
        if (g.pendingRequests > before.requests) {
          new Notification(`${name}: someone asked to join`, { body: `${g.pendingRequests} waiting to join`, tag: `requests ${g.did}` })
        }
        if (g.openSubjects > before.subjects) {
          new Notification(`${name}: new report`, { body: `${g.openSubjects} open reports`, tag: `reports ${g.did}` })
        }
      }
    }
    seen = next
  })

  async function enable() {
    if (!supported) return
    permission.value = await Notification.requestPermission()
  }
  return { permission, enable }
}
