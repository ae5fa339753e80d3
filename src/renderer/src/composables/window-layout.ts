import { computed, ref } from 'vue'

/**
 * How the window lays itself out at the width it has (CSS pixels, so 200 % zoom of a
 * 1280 px window is 640): whether the groups sidebar sits beside the content or opens
 * over it, and whether a row's actions fit beside it or fold into a "More actions" menu.
 * One module state: one window, one width.
 */

/** Below this the 260 px sidebar would leave the content too little room: it opens over it instead. */
export const SIDEBAR_DOCKS_FROM = 1000
const SIDEBAR_WIDTH = 260
/** Content narrower than this folds per-row actions into a menu (rows have a fixed height: they cannot wrap). */
const ROW_ACTIONS_FIT_FROM = 960

const width = ref(typeof window === 'undefined' ? 1280 : window.innerWidth)
if (typeof window !== 'undefined') window.addEventListener('resize', () => (width.value = window.innerWidth), { passive: true })

/**
 * Whether the person keeps the sidebar shown where it could sit beside the content: their
 * choice, remembered (in the page's storage, as group-sections.ts keeps the last tab).
 */
const STORAGE_KEY = 'convene.sidebar'
const readChoice = () => {
  try {
    return localStorage.getItem(STORAGE_KEY) !== 'hidden'
  } catch {
    return true // no storage: shown, as at first
  }
}
const keptOpen = ref(readChoice())
/** Where the sidebar opens over the content, whether it is open now (never remembered: it closes once used). */
const overlayOpen = ref(false)

export const narrow = computed(() => width.value < SIDEBAR_DOCKS_FROM)
export const sidebarShown = computed(() => (narrow.value ? overlayOpen.value : keptOpen.value))
export const sidebarOverlay = computed(() => narrow.value && overlayOpen.value)

export function setSidebar(open: boolean) {
  if (narrow.value) {
    overlayOpen.value = open
    return
  }
  keptOpen.value = open
  try {
    localStorage.setItem(STORAGE_KEY, open ? 'shown' : 'hidden')
  } catch {
    // As above: the choice lasts until the window closes.
  }
}
/** The overlay closes once the person has gone somewhere (or pressed Escape). */
export const closeOverlay = () => (overlayOpen.value = false)

/** The content's width, roughly: the window less a sidebar beside it. */
const contentWidth = computed(() => width.value - (!narrow.value && keptOpen.value ? SIDEBAR_WIDTH : 0))
/** Whether rows show their actions folded into a "More actions" menu. */
export const foldRowActions = computed(() => contentWidth.value < ROW_ACTIONS_FIT_FROM)
