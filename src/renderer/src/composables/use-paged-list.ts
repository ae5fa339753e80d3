import { computed, onBeforeUnmount, shallowRef, watch } from 'vue'
import { useGroupsStore } from '../stores/groups'
import { PagedRows, type LoadPage, type PagedSnapshot } from './paged-rows'

/**
 * Lists seen lately, by key, kept for the window's life so going back to one paints it
 * at once from memory (then checks it against the core). Few: only their loaded pages.
 */
const remembered = new Map<string, PagedSnapshot<unknown>>()
const REMEMBERED = 12
function remember(key: string, snapshot: PagedSnapshot<unknown> | null) {
  remembered.delete(key)
  if (!snapshot) return
  remembered.set(key, snapshot)
  while (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value!)
}

/**
 * Reads the first page of a list the person is likely to open next (a group's members,
 * when the group is opened), while nothing else is going on, so its first visit paints
 * from memory like a return visit does. A list already remembered is left alone.
 */
export function prefetchPagedList<T>(key: string, load: (key: string) => LoadPage<T>, pageSize: number) {
  if (remembered.has(key)) return
  const idle = (fn: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(fn, { timeout: 1_000 }) : setTimeout(fn, 200))
  idle(() => {
    if (remembered.has(key)) return
    const rows = new PagedRows<T>(load(key), pageSize, () => {
      const snapshot = rows.snapshot()
      if (snapshot && !remembered.has(key)) remember(key, snapshot as PagedSnapshot<unknown>)
    })
    rows.reset(load(key))
  })
}

/**
 * A long list that stays in the core and crosses a page at a time (see paged-rows.ts):
 * `key` names the list (group and search); `load` fetches one page of it. Pages in view
 * are read again whenever the store sees news.
 */
export function usePagedList<T>(load: (key: string) => LoadPage<T>, key: () => string, opts: { pageSize?: number } = {}) {
  const store = useGroupsStore()
  const version = shallowRef(0)
  const rows = new PagedRows<T>(load(key()), opts.pageSize ?? 100, () => version.value++)
  // Asked before anything remembered it, a prefetch may still be on its way: that is fine,
  // this list reads its own first page.

  const start = (k: string) => {
    const seen = remembered.get(k) as PagedSnapshot<T> | undefined
    rows.reset(load(k))
    if (seen) rows.restore(seen)
  }
  start(key())
  watch(key, (k, old) => {
    remember(old, rows.snapshot() as PagedSnapshot<unknown> | null)
    start(k)
  })
  watch(
    () => store.revision,
    () => rows.refresh(),
  )
  onBeforeUnmount(() => remember(key(), rows.snapshot() as PagedSnapshot<unknown> | null))

  // Each read goes through `version`, so Vue re-renders when a page lands.
  const matched = computed(() => (version.value, rows.matched))
  const total = computed(() => (version.value, rows.total))
  const loaded = computed(() => (version.value, rows.loaded))
  const error = computed(() => (version.value, rows.error))
  const rowAt = (index: number) => (version.value, rows.rowAt(index))
  return { matched, total, loaded, error, rowAt, show: (s: number, e: number) => rows.show(s, e) }
}
