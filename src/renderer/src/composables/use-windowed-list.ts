import { computed, onBeforeUnmount, onMounted, ref, watch, type Ref } from 'vue'
import { visibleRange } from '../../../shared/visible-range'

/**
 * A simple windowed list for long lists of equal-height rows: past `threshold` items only
 * the rows in view (plus some either side) are rendered inside a scrolling box, with
 * spacers standing in for the rest. Shorter lists render whole, in the page's own scroll.
 */
export function useWindowedList(count: Ref<number>, opts: { rowHeight: number; threshold?: number; overscan?: number }) {
  const threshold = opts.threshold ?? 150
  const viewport = ref<HTMLElement | null>(null)
  const scrollTop = ref(0)
  const viewportHeight = ref(0)
  const windowed = computed(() => count.value > threshold)

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
      ? visibleRange({ scrollTop: scrollTop.value, viewportHeight: viewportHeight.value, rowHeight: opts.rowHeight, count: count.value, overscan: opts.overscan })
      : { start: 0, end: count.value, padTop: 0, padBottom: 0 },
  )
  /** The positions in the whole list of the rows to render (also their aria-posinset). */
  const indices = computed(() => Array.from({ length: range.value.end - range.value.start }, (_, i) => range.value.start + i))

  /** Back to the top (a new search shows its first matches). */
  function reset() {
    if (viewport.value) viewport.value.scrollTop = 0
    scrollTop.value = 0
  }
  return { viewport, windowed, range, indices, onScroll: measure, reset }
}
