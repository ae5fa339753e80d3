import { computed, onBeforeUnmount, onMounted, ref, watch, type Ref } from 'vue'
import { visibleRange } from '../../../shared/visible-range'

/**
 * A simple windowed list for long lists of equal-height rows: past `threshold` items only
 * the rows in view (plus some either side) are rendered inside a scrolling box, with
 * spacers standing in for the rest. Shorter lists render whole, in the page's own scroll.
 */
export function useWindowedList<T>(items: Ref<T[]>, opts: { rowHeight: number; threshold?: number; overscan?: number }) {
  const threshold = opts.threshold ?? 150
  const viewport = ref<HTMLElement | null>(null)
  const scrollTop = ref(0)
  const viewportHeight = ref(0)
  const windowed = computed(() => items.value.length > threshold)

  const measure = () => {
    const el = viewport.value
    if (!el) return
    scrollTop.value = el.scrollTop
    viewportHeight.value = el.clientHeight
  }
  let observer: ResizeObserver | undefined
  onMounted(() => {
    observer = new ResizeObserver(measure)
    watch(
      viewport,
      (el, old) => {
        if (old) observer?.unobserve(old)
        if (el) observer?.observe(el)
        measure()
      },
      { immediate: true },
    )
  })
  onBeforeUnmount(() => observer?.disconnect())

  const range = computed(() =>
    windowed.value
      ? visibleRange({ scrollTop: scrollTop.value, viewportHeight: viewportHeight.value, rowHeight: opts.rowHeight, count: items.value.length, overscan: opts.overscan })
      : { start: 0, end: items.value.length, padTop: 0, padBottom: 0 },
  )
  /** The rows to render, each with its position in the whole list (for aria-posinset). */
  const visible = computed(() => items.value.slice(range.value.start, range.value.end).map((item, i) => ({ item, index: range.value.start + i })))

  /** Back to the top (a new search shows its first matches). */
  function reset() {
    if (viewport.value) viewport.value.scrollTop = 0
    scrollTop.value = 0
  }
  return { viewport, windowed, range, visible, onScroll: measure, reset }
}
