import { computed, onBeforeUnmount, shallowRef, watch } from 'vue'
import type { ConveneApi } from '../../../shared/ipc/api'
import type { ChannelOutput } from '../../../shared/ipc/contract'
import type { GroupSummary } from '../../../shared/ipc/views'
import { useApi } from '../ipc/use-api'
import { listOf, useGroupsStore } from '../stores/groups'
import { PagedRows, type PagedSnapshot } from './paged-rows'
import { isSearch, PAGE_SIZE, pagedListKey, pageLoader, type PageParams, type PagedChannel, type RowOf } from './paged-channels'

/**
 * Lists seen lately, by key, kept for the window's life so going back to one paints it
 * at once from memory (then checks it against the core). Few, and only whole lists, not
 * searches (a search typed letter by letter would push every list out).
 */
const remembered = new Map<string, PagedSnapshot<unknown>>()
const REMEMBERED = 12
function remember(key: string, snapshot: PagedSnapshot<unknown> | null) {
  remembered.delete(key)
  if (!snapshot || isSearch(key)) return
  remembered.set(key, snapshot)
  while (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value!)
}

/**
 * Reads the first page of a list the person is likely to open next (a group's members,
 * when the group is opened), while nothing else is going on, so its first visit paints
 * from memory like a return visit does. A list already remembered is left alone.
 */
export function prefetchPagedList(api: ConveneApi, channel: PagedChannel, group: GroupSummary) {
  const key = pagedListKey(channel, group.accountDid, group.did)
  if (remembered.has(key)) return
  const idle = (fn: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(fn, { timeout: 1_000 }) : setTimeout(fn, 200))
  idle(() => {
    if (remembered.has(key)) return
    pageLoader(api, channel)(key)(0, PAGE_SIZE).then(
      ({ items, offset: _offset, total, matched, revision, ...info }) => {
        if (!remembered.has(key)) remember(key, { pages: new Map([[0, items]]), revision, total, matched, info })
      },
      () => {}, // Read ahead only: the list reads (and reports) for itself when opened.
    )
  })
}

/**
 * A group's long list that stays in the core and crosses a page at a time (see
 * paged-rows.ts), narrowed there by `params` (a search, a status). Pages in view are
 * read again whenever a notice says this list of the group moved.
 */
export function usePagedList<C extends PagedChannel>(channel: C, group: () => GroupSummary, params: () => PageParams) {
  type Row = RowOf<C>
  const api = useApi()
  const store = useGroupsStore()
  const load = pageLoader(api, channel)
  const key = () => pagedListKey(channel, group().accountDid, group().did, params())
  const version = shallowRef(0)
  const rows = new PagedRows<Row>(load(key()), PAGE_SIZE, () => version.value++)

  const start = (k: string) => {
    const seen = remembered.get(k) as PagedSnapshot<Row> | undefined
    rows.reset(load(k))
    if (seen) rows.restore(seen)
  }
  start(key())
  watch(key, (k, old) => {
    remember(old, rows.snapshot() as PagedSnapshot<unknown> | null)
    start(k)
  })
  watch(
    () => store.revisionOf(group().accountDid, group().did, listOf(channel)),
    () => rows.refresh(),
  )
  onBeforeUnmount(() => remember(key(), rows.snapshot() as PagedSnapshot<unknown> | null))

  // Each read goes through `version`, so Vue re-renders when a page lands.
  const matched = computed(() => (version.value, rows.matched))
  const total = computed(() => (version.value, rows.total))
  const loaded = computed(() => (version.value, rows.loaded))
  const error = computed(() => (version.value, rows.error))
  /** What else the core said about the whole list (join requests: how many are open). */
  const info = computed(() => (version.value, rows.info as Partial<Omit<ChannelOutput<C>, 'items'>>))
  const rowAt = (index: number) => (version.value, rows.rowAt(index))
  return { matched, total, loaded, error, info, rowAt, show: (s: number, e: number) => rows.show(s, e) }
}
