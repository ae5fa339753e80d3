import { computed, onBeforeUnmount, ref, type Ref } from 'vue'
import { visibleRange } from '../../../shared/visible-range'

/** The scrolling box's height: most of the window, at most 720 px (see boxStyle). */
const boxHeightFor = (windowHeight: number) => Math.round(Math.min(windowHeight * 0.7, 720))

/**
 * A simple windowed list for long lists of equal-height rows: past `threshold` items only
 * the rows in view (plus some either side) are rendered inside a scrolling box, with
 * spacers standing in for the rest. Shorter lists render whole, in the page's own scroll.
 *
 * The box's height is set here (`boxStyle`), not measured: the first render of a list
 * already has the rows that fill it, rather than a guess corrected one layout later,
 * which costs a second render and layout on the way to the first screen.
 */
export function useWindowedList(count: Ref<number>, opts: { rowHeight: number; threshold?: number; overscan?: number }) {
  const threshold = opts.threshold ?? 150
  const viewport = ref<HTMLElement | null>(null)
  const scrollTop = ref(0)
  const windowHeight = ref(window.innerHeight)
  const windowed = computed(() => count.value > threshold)
  const viewportHeight = computed(() => boxHeightFor(windowHeight.value))
  const boxStyle = computed(() => (windowed.value ? { height: `${viewportHeight.value}px` } : undefined))

  const onResize = () => (windowHeight.value = window.innerHeight)
  window.addEventListener('resize', onResize, { passive: true })
  onBeforeUnmount(() => window.removeEventListener('resize', onResize))
  const onScroll = () => {
    if (viewport.value) scrollTop.value = viewport.value.scrollTop
  }

  const range = computed(() =>
    windowed.value
      ? visibleRange({ scrollTop: scrollTop.value, viewportHeight: viewportHeight.value, rowHeight: opts.rowHeight, count: count.value, overscan: opts.overscan })
      : { start: 0, end: count.value, padTop: 0, padBottom: 0 },
  )
  /** The positions in the whole list of the rows to render (also their aria-posinset). */
  const indices = computed(() => Array.from({ length: range.value.end - range.value.start }, (_, i) => range.value.start + i))

  /**
   * Scrolls the box just enough that row `index` is rendered and in view (keyboard moves
   * through rows that are not in the page yet); the page scroll takes care of short lists.
   */
  function bringIntoView(index: number) {
    const el = viewport.value
    if (!windowed.value || !el) return
    const top = index * opts.rowHeight
    const bottom = top + opts.rowHeight
    if (top < el.scrollTop) el.scrollTop = top
    else if (bottom > el.scrollTop + el.clientHeight) el.scrollTop = bottom - el.clientHeight
    scrollTop.value = el.scrollTop
  }
  /** How many rows one screen holds (Page Up and Page Down move by it). */
  const rowsPerScreen = () => Math.max(1, Math.floor((windowed.value && viewport.value ? viewport.value.clientHeight : window.innerHeight) / opts.rowHeight) - 1)

  /** Back to the top (a new search shows its first matches). */
  function reset() {
    if (viewport.value) viewport.value.scrollTop = 0
    scrollTop.value = 0
  }
  return { viewport, windowed, boxStyle, range, indices, onScroll, reset, bringIntoView, rowsPerScreen }
}
