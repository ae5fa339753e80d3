/**
 * Which rows of a long list of equal-height rows to render, from the scroll position:
 * the rows in view plus `overscan` either side, and the space to leave above and below
 * them so the scroll bar stays true to the whole list.
 */
export interface VisibleRange {
  start: number
  /** One past the last row to render. */
  end: number
  padTop: number
  padBottom: number
}

export function visibleRange(o: { scrollTop: number; viewportHeight: number; rowHeight: number; count: number; overscan?: number }): VisibleRange {
  const overscan = o.overscan ?? 8
  const count = Math.max(0, Math.floor(o.count))
  if (count === 0 || o.rowHeight <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 }
  const maxTop = Math.max(0, count * o.rowHeight - o.viewportHeight)
  const top = Math.min(Math.max(0, o.scrollTop), maxTop)
  const first = Math.floor(top / o.rowHeight)
  const inView = Math.ceil(Math.max(o.viewportHeight, o.rowHeight) / o.rowHeight) + 1
  const start = Math.max(0, first - overscan)
  const end = Math.min(count, first + inView + overscan)
  return { start, end, padTop: start * o.rowHeight, padBottom: (count - end) * o.rowHeight }
}
