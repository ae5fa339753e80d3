import { ref, watch } from 'vue'
import type { GroupSummary } from '../../../shared/ipc/views'
import { countOf, groupName } from './display'
import { useApi } from '../ipc/use-api'

const supported = typeof Notification !== 'undefined'

/**
 * OS notifications (where the shell has them) when a group gets new join requests or
 * reports: compared with what the window last saw, never for what it showed at start.
 */
/** Where a notification leads when clicked. */
export type NotifiedSection = 'requests' | 'moderation'

export function useNotifications(groups: () => GroupSummary[], open: (group: GroupSummary, section: NotifiedSection) => void) {
  const api = useApi()
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
          notify(`${name}: someone asked to join`, `${g.pendingRequests.toLocaleString()} waiting to join`, `requests ${g.did}`, () => open(g, 'requests'))
        }
        if (g.openSubjects > before.subjects) {
          notify(`${name}: new report`, countOf(g.openSubjects, 'open report', 'open reports'), `reports ${g.did}`, () => open(g, 'moderation'))
        }
      }
    }
    seen = next
  })

  /** One notification per group and kind (`tag`), replaced by the next; a click brings the window to it. */
  function notify(title: string, body: string, tag: string, onClick: () => void) {
    const shown = new Notification(title, { body, tag })
    shown.onclick = () => {
      window.focus()
      // The page alone cannot raise a desktop window from behind others or from the dock.
      api['app.raiseWindow']({}).catch(() => {})
      onClick()
      shown.close()
    }
  }

  /** The person asked and was refused: the window says so, and where to allow them (until dismissed). */
  const refused = ref(false)
  async function enable() {
    if (!supported) return
    permission.value = await Notification.requestPermission()
    refused.value = permission.value === 'denied'
  }
  return { permission, enable, refused }
}
