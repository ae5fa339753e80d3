import { describe, expect, it } from 'vitest'
import { PagedRows, type Page } from '../../src/renderer/src/composables/paged-rows'

/** A list held "in the core": pages cut from it carry its revision, as the real channel's do. */
function fakeCore(count: number) {
  const core = {
    rows: Array.from({ length: count }, (_, i) => `row${i}`),
    revision: 1,
    calls: [] as { offset: number; limit: number }[],
    /** Answers queue here until released, so tests can order them. */
    held: [] as (() => void)[],
    hold: false,
    load: async (offset: number, limit: number): Promise<Page<string>> => {
      core.calls.push({ offset, limit })
      const cut = { items: core.rows.slice(offset, offset + limit), offset, total: core.rows.length, matched: core.rows.length, revision: core.revision }
      if (core.hold) await new Promise<void>((resolve) => core.held.push(resolve))
      return cut
    },
  }
  return core
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('paged rows of a long list', () => {
  it('fetches the pages the window shows and the one either side, once each', async () => {
    const core = fakeCore(10_000)
    const rows = new PagedRows(core.load, 100, () => {})
    rows.reset(core.load)
    await settle()
    expect(rows.matched).toBe(10_000)
    expect(rows.rowAt(0)).toBe('row0')
    rows.show(4_950, 5_030)
    rows.show(4_950, 5_030)
    await settle()
    await settle()
    expect(core.calls.map((c) => c.offset).sort((a, b) => a - b)).toEqual([0, 100, 4_800, 4_900, 5_000, 5_100])
    expect(rows.rowAt(5_029)).toBe('row5029')
    expect(rows.rowAt(3_000)).toBeUndefined()
  })

  it('never shows rows of two versions of the list side by side', async () => {
    const core = fakeCore(300)
    const rows = new PagedRows(core.load, 100, () => {})
    rows.reset(core.load)
    await settle()
    rows.show(50, 150)
    await settle()
    expect(rows.rowAt(120)).toBe('row120')
    // Someone is inserted at the top: every later row moves down one.
    core.rows.unshift('newcomer')
    core.revision = 2
    rows.refresh()
    await settle()
    await settle()
    expect(rows.rowAt(0)).toBe('newcomer')
    expect(rows.rowAt(120)).toBe('row119')
  })

  it('a page that was on its way when the list changed is read again once it lands', async () => {
    const core = fakeCore(300)
    const rows = new PagedRows(core.load, 100, () => {})
    rows.reset(core.load)
    await settle()
    core.hold = true
    rows.show(150, 160) // page 1 asked while the list is at revision 1…
    core.hold = false
    core.rows[150] = 'changed'
    core.revision = 2
    rows.refresh() // …and the store says the list changed before the answer came
    core.held.shift()!()
    await settle()
    await settle()
    expect(rows.rowAt(150)).toBe('changed')
    expect(core.calls.filter((c) => c.offset === 100)).toHaveLength(2)
  })

  it('drops an answer cut before a newer one it already holds, and asks again', async () => {
    const core = fakeCore(1000)
    const rows = new PagedRows(core.load, 100, () => {})
    rows.reset(core.load)
    await settle()
    await settle()
    core.hold = true
    rows.show(550, 560) // page 5 cut at revision 1, held on the way
    core.hold = false
    core.rows[550] = 'changed'
    core.revision = 2
    rows.show(850, 860) // page 8 cut at revision 2 arrives first
    await settle()
    expect(rows.rowAt(850)).toBe('row850')
    expect(rows.rowAt(0)).toBeUndefined() // page 0 (revision 1) was dropped
    core.held.shift()!() // the revision-1 page 5 lands late
    await settle()
    await settle()
    expect(rows.rowAt(550)).toBe('changed')
  })

  it('a new search replaces what is shown with its first page, and late answers of the old one are ignored', async () => {
    const core = fakeCore(500)
    const rows = new PagedRows(core.load, 100, () => {})
    rows.reset(core.load)
    await settle()
    core.hold = true
    rows.show(400, 450)
    const matching = fakeCore(3)
    matching.rows = ['a', 'b', 'c']
    rows.reset(matching.load)
    await settle()
    expect(rows.matched).toBe(3)
    core.held.forEach((release) => release())
    await settle()
    expect(rows.matched).toBe(3)
    expect(rows.rowAt(0)).toBe('a')
  })

  it('keeps the rows shown and says what went wrong when a page cannot be read', async () => {
    const core = fakeCore(300)
    const rows = new PagedRows(core.load, 100, () => {})
    rows.reset(core.load)
    await settle()
    rows.reset(async () => {
      throw new Error('That group is not in this account’s list.')
    })
    await settle()
    expect(rows.error).toBe('That group is not in this account’s list.')
  })
})
