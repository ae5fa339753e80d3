import { computed, ref, watch } from 'vue'

/** What onKey reads of a key press (a KeyboardEvent's fields). */
export interface KeyPress {
  key: string
  shiftKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
}

/** What a list with a selection tells it: how rows are named, read and matched. */
export interface SelectionSource<Row> {
  /** What names a row for the action (a DID, a subject's key). */
  keyOf: (row: Row) => string
  /** The row at a place in the list, once its page is here (windowed lists load a page at a time). */
  rowAt: (index: number) => Row | undefined
  /** Rows that may not be chosen now (one being sent). */
  locked?: (row: Row) => boolean
  /** How many rows match the filter and may be chosen: "all" is that many chosen. */
  matching: () => number
  /**
   * Every row matching the filter, loaded or not (select all matching): the rows, when
   * the action needs more than the key, or only their keys.
   */
  allMatching: () => Promise<{ rows: Row[] } | { keys: string[] }>
  /** The filter: when it changes, the selection starts again, so nothing out of sight is acted on by surprise. */
  filter: () => unknown
}

/**
 * A list's selection, for acting on many rows at once (join requests, the moderation
 * queue, members, invites): a click chooses a row, a shift-click (or Shift+X) chooses
 * the rows between it and the one chosen last, "all" chooses every row matching the
 * filter (loaded or not), and x toggles the focused row. The keys are kept, not the rows,
 * so a selection outlives the pages scrolled out of memory.
 */
export function useSelection<Row>(source: SelectionSource<Row>) {
  const selected = ref(new Set<string>())
  /** The chosen rows as they were when chosen (what a bulk action needs of each, and names them by). */
  const rows = new Map<string, Row>()
  /** Where the last single choice was made: a range runs from here. */
  const anchor = ref<number | null>(null)
  /** While "all matching" is being read from the core. */
  const selecting = ref(false)
  watch(source.filter, () => clear())

  const allSelected = computed(() => source.matching() > 0 && selected.value.size >= source.matching())
  const someSelected = computed(() => selected.value.size > 0 && !allSelected.value)
  const has = (key: string) => selected.value.has(key)

  function clear() {
    selected.value = new Set()
    rows.clear()
    anchor.value = null
  }
  function set(chosen: Iterable<Row>, on: boolean) {
    const next = new Set(selected.value)
    for (const row of chosen) {
      const key = source.keyOf(row)
      if (on) {
        next.add(key)
        rows.set(key, row)
      } else {
        next.delete(key)
        rows.delete(key)
      }
    }
    selected.value = next
  }
  function unselect(keys: Iterable<string>) {
    const next = new Set(selected.value)
    for (const key of keys) {
      next.delete(key)
      rows.delete(key)
    }
    selected.value = next
  }
  /** The loaded, choosable rows from `from` to `to` (either way round). */
  function rowsBetween(from: number, to: number): Row[] {
    const out: Row[] = []
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
      const row = source.rowAt(i)
      if (row !== undefined && !source.locked?.(row)) out.push(row)
    }
    return out
  }
  /** The chosen keys, each with its row when the list gave one. */
  const chosen = () => [...selected.value].map((key) => ({ key, row: rows.get(key) }))
  /**
   * Chooses or unchooses the row at `index`; with `range`, every row from the last one
   * chosen to this one takes this row's new state (as in a mail client).
   */
  function toggle(index: number, opts: { range?: boolean } = {}) {
    const row = source.rowAt(index)
    if (row === undefined || source.locked?.(row)) return
    const on = !has(source.keyOf(row))
    set(opts.range && anchor.value !== null ? rowsBetween(anchor.value, index) : [row], on)
    anchor.value = index
  }
  /** "All": every row matching the filter, asked of the core; with some or all chosen, none. */
  async function toggleAll() {
    if (allSelected.value || someSelected.value) {
      clear()
      return
    }
    selecting.value = true
    try {
      const all = await source.allMatching()
      clear()
      if ('rows' in all) set(all.rows, true)
      else selected.value = new Set(all.keys)
    } finally {
      selecting.value = false
    }
  }
  /** Keys on a focused row: x (or Space) toggles it, Shift+X chooses the range to it. True when the key was taken. */
  function onKey(index: number, event: KeyPress): boolean {
    if (event.ctrlKey || event.metaKey || event.altKey) return false
    const key = event.key.toLowerCase()
    if (key !== 'x' && key !== ' ') return false
    toggle(index, { range: event.shiftKey && key === 'x' })
    return true
  }
  return { selected, selecting, allSelected, someSelected, has, chosen, toggle, toggleAll, onKey, clear, unselect }
}

/**
 * Every row of a paged list matching its filter (a page at a time, as the core hands
 * them out), for "select all matching" where the core has no channel that answers it.
 */
export async function everyRow<Row>(load: (offset: number, limit: number) => Promise<{ items: Row[]; matched: number }>, take: (row: Row) => boolean = () => true): Promise<Row[]> {
  const LIMIT = 500
  const out: Row[] = []
  for (let offset = 0; ; offset += LIMIT) {
    const page = await load(offset, LIMIT)
    for (const row of page.items) if (take(row)) out.push(row)
    if (page.items.length < LIMIT || offset + LIMIT >= page.matched) return out
  }
}
