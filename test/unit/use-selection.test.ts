import { describe, expect, it } from 'vitest'
import { nextTick, ref } from 'vue'
import { everyRow, useSelection, type KeyPress } from '../../src/renderer/src/composables/use-selection'

interface Row {
  key: string
  pending?: boolean
}

/** A list of `n` rows of which only `loaded` are here (a windowed list's pages), narrowed by a filter. */
function list(n: number, opts: { loaded?: (i: number) => boolean; pending?: number[] } = {}) {
  const rows: Row[] = Array.from({ length: n }, (_, i) => ({ key: `r${i}`, ...(opts.pending?.includes(i) ? { pending: true } : {}) }))
  const filter = ref('')
  const asked: string[] = []
  const selection = useSelection<Row>({
    keyOf: (r) => r.key,
    rowAt: (i) => ((opts.loaded?.(i) ?? true) ? rows[i] : undefined),
    locked: (r) => Boolean(r.pending),
    matching: () => rows.filter((r) => !r.pending).length,
    allMatching: async () => {
      asked.push(filter.value)
      return { rows: rows.filter((r) => !r.pending) }
    },
    filter: () => filter.value,
  })
  return { selection, filter, asked }
}
const keys = (s: Set<string>) => [...s].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))

describe('choosing many rows of a list', () => {
  it('a click chooses one row and a second click lets it go', () => {
    const { selection } = list(5)
    selection.toggle(2)
    expect(keys(selection.selected.value)).toEqual(['r2'])
    selection.toggle(2)
    expect(keys(selection.selected.value)).toEqual([])
  })

  it('a shift-click chooses every row from the last one chosen to it, either way round', () => {
    const { selection } = list(10)
    selection.toggle(2)
    selection.toggle(5, { range: true })
    expect(keys(selection.selected.value)).toEqual(['r2', 'r3', 'r4', 'r5'])
    selection.toggle(0, { range: true })
    expect(keys(selection.selected.value)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5'])
  })

  it('a shift-click on a chosen row lets the whole range go', () => {
    const { selection } = list(10)
    selection.toggle(1)
    selection.toggle(6, { range: true })
    selection.toggle(3)
    selection.toggle(5, { range: true })
    expect(keys(selection.selected.value)).toEqual(['r1', 'r2', 'r6'])
  })

  it('a range skips rows being sent and rows not loaded (nothing out of sight is chosen by a range)', () => {
    const { selection } = list(10, { pending: [3], loaded: (i) => i !== 5 })
    selection.toggle(1)
    selection.toggle(7, { range: true })
    expect(keys(selection.selected.value)).toEqual(['r1', 'r2', 'r4', 'r6', 'r7'])
  })

  it('a shift-click with nothing chosen before chooses just that row', () => {
    const { selection } = list(10)
    selection.toggle(4, { range: true })
    expect(keys(selection.selected.value)).toEqual(['r4'])
  })

  it('"all" chooses every row matching the filter, loaded or not, and a second press chooses none', async () => {
    const { selection, filter, asked } = list(1_000, { loaded: (i) => i < 100, pending: [7] })
    filter.value = 'spam'
    await nextTick()
    await selection.toggleAll()
    expect(asked).toEqual(['spam'])
    expect(selection.selected.value.size).toBe(999)
    expect(selection.has('r7')).toBe(false)
    expect(selection.allSelected.value).toBe(true)
    // Each chosen row comes with what the action needs of it, loaded in view or not.
    expect(selection.chosen().find((c) => c.key === 'r900')?.row).toEqual({ key: 'r900' })
    expect(selection.someSelected.value).toBe(false)
    await selection.toggleAll()
    expect(selection.selected.value.size).toBe(0)
  })

  it('"all" with some chosen clears them rather than choosing more', async () => {
    const { selection, asked } = list(10)
    selection.toggle(0)
    expect(selection.someSelected.value).toBe(true)
    await selection.toggleAll()
    expect(selection.selected.value.size).toBe(0)
    expect(asked).toEqual([])
  })

  it('"all" may be only keys, where the core answers only those (join requests)', async () => {
    const filter = ref('')
    const selection = useSelection<Row>({ keyOf: (r) => r.key, rowAt: () => undefined, matching: () => 2, allMatching: async () => ({ keys: ['a', 'b'] }), filter: () => filter.value })
    await selection.toggleAll()
    expect(selection.chosen()).toEqual([{ key: 'a', row: undefined }, { key: 'b', row: undefined }])
    expect(selection.allSelected.value).toBe(true)
  })

  it('a new filter starts a new selection', async () => {
    const { selection, filter } = list(10)
    selection.toggle(0)
    selection.toggle(3, { range: true })
    filter.value = 'other'
    await nextTick()
    expect(selection.selected.value.size).toBe(0)
    // The range's start went with it.
    selection.toggle(5, { range: true })
    expect(keys(selection.selected.value)).toEqual(['r5'])
  })

  it('x toggles the focused row and Shift+X chooses the range to it; other keys are left alone', () => {
    const { selection } = list(10)
    // Only the fields the selection reads (the unit tests run without a DOM).
    const key = (k: string, shiftKey = false, ctrlKey = false) => ({ key: k, shiftKey, ctrlKey, metaKey: false, altKey: false }) satisfies KeyPress
    expect(selection.onKey(2, key('x'))).toBe(true)
    expect(selection.onKey(4, key('X', true))).toBe(true)
    expect(keys(selection.selected.value)).toEqual(['r2', 'r3', 'r4'])
    expect(selection.onKey(4, key('r'))).toBe(false)
    expect(selection.onKey(4, key('x', false, true))).toBe(false)
    expect(selection.onKey(4, key(' '))).toBe(true)
    expect(keys(selection.selected.value)).toEqual(['r2', 'r3'])
  })
})

describe('every row of a paged list', () => {
  it('reads page after page until the matching rows are all read', async () => {
    const rows = Array.from({ length: 1_234 }, (_, i) => ({ key: `k${i}`, pending: i % 100 === 0 }))
    const calls: number[] = []
    const out = await everyRow(
      async (offset, limit) => {
        calls.push(offset)
        return { items: rows.slice(offset, offset + limit), matched: rows.length }
      },
      (r) => !r.pending,
    )
    expect(calls).toEqual([0, 500, 1000])
    expect(out).toHaveLength(1_234 - 13)
    expect(out.map((r) => r.key)).not.toContain('k100')
  })
})
