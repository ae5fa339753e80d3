import { ref } from 'vue'
import type { GroupSummary } from '../../../shared/ipc/views'

/**
 * A group's sections (its tabs), in the order the tabs show them, and who may use each:
 * the tabs, the section a group opens on and `[` `]` all read this one list.
 */
export const GROUP_SECTIONS = [
  { section: 'requests', label: 'Join requests', usable: (g: GroupSummary) => g.actions.includes('admit') },
  { section: 'members', label: 'Members', usable: () => true },
  { section: 'invites', label: 'Invites', usable: (g: GroupSummary) => g.actions.includes('invite') },
  { section: 'moderation', label: 'Moderation', usable: (g: GroupSummary) => g.actions.includes('mod.read') },
  { section: 'calendar', label: 'Calendar', usable: () => true },
  { section: 'spaces', label: 'Advanced', usable: () => true },
  { section: 'settings', label: 'Settings', usable: (g: GroupSummary) => g.actions.includes('group.configure') },
] as const

export type GroupSection = (typeof GROUP_SECTIONS)[number]['section']

export const sectionUsable = (g: GroupSummary, section: string) => GROUP_SECTIONS.some((s) => s.section === section && s.usable(g))

/**
 * Where each role's everyday work is, most pressing first: whoever admits opens on the
 * queue of people waiting, a moderator on the reports, anyone else on the calendar.
 * (Members, first in the tabs' order, is where nobody's daily work is.)
 */
const WORK_ORDER: GroupSection[] = ['requests', 'moderation', 'calendar']

/**
 * The tab each group was last left on, per account and group. Kept in the page's own
 * storage (the sandboxed renderer has it in both shells; the loopback shell's origin
 * changes with its port, so there it lasts as long as the window); the ref makes links
 * built from it follow a new choice.
 */
const STORAGE_PREFIX = 'convene.groupSection '
const storageKey = (g: Pick<GroupSummary, 'accountDid' | 'did'>) => `${STORAGE_PREFIX}${g.accountDid} ${g.did}`
const remembered = ref(new Map<string, string>())
try {
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i)
    const value = key?.startsWith(STORAGE_PREFIX) ? localStorage.getItem(key) : null
    if (key && value) remembered.value.set(key, value)
  }
} catch {
  // No storage (a locked-down profile): choices last until the window closes.
}

/** Notes the tab the person chose in a group, so the group opens there next time. */
export function rememberSection(g: GroupSummary, section: string) {
  if (!sectionUsable(g, section)) return
  const key = storageKey(g)
  if (remembered.value.get(key) === section) return
  remembered.value.set(key, section)
  try {
    localStorage.setItem(key, section)
  } catch {
    // As above: remembered in memory only.
  }
}

/**
 * The section a group opens on: the one last chosen there, if the person's roles still
 * reach it, else the first that holds their work.
 */
export function landingSection(g: GroupSummary): GroupSection {
  const last = remembered.value.get(storageKey(g))
  const chosen = GROUP_SECTIONS.find((s) => s.section === last && s.usable(g))
  if (chosen) return chosen.section
  return WORK_ORDER.find((s) => sectionUsable(g, s)) ?? 'calendar'
}
