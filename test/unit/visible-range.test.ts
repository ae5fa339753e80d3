import { describe, expect, it } from 'vitest'
import { visibleRange } from '../../src/shared/visible-range.js'

describe('visibleRange (the windowed member list)', () => {
  it('renders only the rows in view plus the overscan, and keeps the full height', () => {
    const r = visibleRange({ scrollTop: 0, viewportHeight: 600, rowHeight: 60, count: 5000, overscan: 5 })
    expect(r).toEqual({ start: 0, end: 16, padTop: 0, padBottom: (5000 - 16) * 60 })
  })

  it('follows the scroll position', () => {
    const r = visibleRange({ scrollTop: 60 * 1000 + 30, viewportHeight: 600, rowHeight: 60, count: 5000, overscan: 5 })
    expect(r.start).toBe(995)
    expect(r.end).toBe(1016)
    expect(r.padTop + (r.end - r.start) * 60 + r.padBottom).toBe(5000 * 60)
  })

  it('clamps at the end of the list and past it (a list that shrank under the scroll)', () => {
    const r = visibleRange({ scrollTop: 10_000_000, viewportHeight: 600, rowHeight: 60, count: 5000, overscan: 5 })
    expect(r.end).toBe(5000)
    expect(r.padBottom).toBe(0)
    expect(r.end - r.start).toBeLessThanOrEqual(11 + 5 + 5)
  })

  it('renders a short list whole, and an empty one not at all', () => {
    expect(visibleRange({ scrollTop: 0, viewportHeight: 600, rowHeight: 60, count: 3 })).toEqual({ start: 0, end: 3, padTop: 0, padBottom: 0 })
    expect(visibleRange({ scrollTop: 0, viewportHeight: 600, rowHeight: 60, count: 0 })).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 })
  })

  it('still renders rows before the viewport has been measured', () => {
    expect(visibleRange({ scrollTop: 0, viewportHeight: 0, rowHeight: 60, count: 100, overscan: 2 }).end).toBeGreaterThan(0)
  })
})
