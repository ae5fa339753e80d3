import { ref, watch } from 'vue'
import type { GroupSummary } from '../../../shared/ipc/views'
import { countOf, groupName } from './display'
import { useApi } from '../ipc/use-api'
import { eventChangeNote, reminderNote } from './event-notifications'

const supported = typeof Notification !== 'undefined'

/**
 * OS notifications (where the shell has them) when a group gets new join requests or
 * reports: compared with what the window last saw, never for what it showed at start.
 */
/** Where a notification leads when clicked. */
export type NotifiedSection = 'requests' | 'moderation' | 'calendar'

/** Reminders already given (by event, tag and start), kept across restarts so a day-before reminder comes once. */
const REMINDED_KEY = 'convene.remindedEvents'
const REMINDED_MOST = 300
function remindedBefore(): string[] {
  try {
    const kept = JSON.parse(localStorage.getItem(REMINDED_KEY) ?? '[]') as unknown
    return Array.isArray(kept) ? kept.filter((k): k is string => typeof k === 'string') : []
  } catch {
    return []
  }
}

export function useNotifications(groups: () => GroupSummary[], open: (group: GroupSummary, section: NotifiedSection) => void, clock: () => number = () => 0) {
  const api = useApi()
  const permission = ref<NotificationPermission | 'unsupported'>(supported ? Notification.permission : 'unsupported')
  let seen: Map<string, { requests: number; subjects: number; events: GroupSummary['myEvents'] }> | null = null
  const reminded = remindedBefore()

  /** A day before each event the person goes to, once; checked as summaries move and as the clock ticks. */
  function remind(list: GroupSummary[]) {
    if (permission.value !== 'granted') return
    const now = Date.now()
    const before = reminded.length
    for (const g of list) {
      for (const e of g.myEvents) {
        const note = reminderNote(e, groupName(g), (rkey) => `event ${g.accountDid} ${g.did} ${rkey}`, now)
        if (!note || reminded.includes(`${note.tag} ${e.startsAt}`)) continue
        reminded.push(`${note.tag} ${e.startsAt}`)
        notify(note.title, note.body, note.tag, () => open(g, 'calendar'))
      }
    }
    if (reminded.length === before) return
    try {
      localStorage.setItem(REMINDED_KEY, JSON.stringify(reminded.slice(-REMINDED_MOST)))
    } catch {
      // Storage refused (full, or none in this shell): reminders may come again after a restart.
    }
  }
  watch(clock, () => remind(groups()))

  watch(groups, (list) => {
    const next = new Map(list.map((g) => [`${g.accountDid} ${g.did}`, { requests: g.pendingRequests, subjects: g.openSubjects, events: g.myEvents }]))
    if (seen && permission.value === 'granted') {
      for (const g of list) {
        const before = seen.get(`${g.accountDid} ${g.did}`)
        if (!before) continue
        const name = groupName(g)
        for (const e of g.myEvents) {
          const note = eventChangeNote(before.events.find((b) => b.rkey === e.rkey), e, name, (rkey) => `event ${g.accountDid} ${g.did} ${rkey}`)
          if (note) notify(note.title, note.body, note.tag, () => open(g, 'calendar'))
        }
        if (g.pendingRequests > before.requests) {
          notify(`${name}: someone asked to join`, `${g.pendingRequests.toLocaleString()} waiting to join`, `requests ${g.did}`, () => open(g, 'requests'))
        }
        if (g.openSubjects > before.subjects) {
          notify(`${name}: new report`, countOf(g.openSubjects, 'open report', 'open reports'), `reports ${g.did}`, () => open(g, 'moderation'))
        }
      }
    }
    seen = next
    remind(list)
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
