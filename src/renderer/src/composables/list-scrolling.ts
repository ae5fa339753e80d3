import { inject, provide, ref, watch, onBeforeUnmount, readonly, type InjectionKey, type Ref } from 'vue'

const LIST_SCROLLING: InjectionKey<Readonly<Ref<boolean>>> = Symbol('list-scrolling')
/** How long a list must stand still before rows that came into view draw what they put off. */
const SETTLE_MS = 150

/**
 * For a windowed list: says to its rows whether it is being scrolled (until it has stood
 * still a moment). Returns what to call on each scroll event.
 */
export function provideListScrolling(): () => void {
  const scrolling = ref(false)
  let settle: ReturnType<typeof setTimeout> | undefined
  provide(LIST_SCROLLING, readonly(scrolling))
  onBeforeUnmount(() => clearTimeout(settle))
  return () => {
    scrolling.value = true
    clearTimeout(settle)
    settle = setTimeout(() => (scrolling.value = false), SETTLE_MS)
  }
}

/**
 * Whether a row may draw its costly parts now. Native selects are: creating six of them
 * a frame made scrolling 10,000 members drop frames on a 2-core machine (bench:ui), while
 * rows without them kept every frame. A row that comes into view mid-scroll draws them
 * once the list settles; once drawn they stay, so rows already shown never change.
 */
export function useDrawnWhenSettled(): Readonly<Ref<boolean>> {
  const scrolling = inject(LIST_SCROLLING, null)
  const drawn = ref(!scrolling?.value)
  if (!drawn.value) {
    const stop = watch(scrolling!, (now) => {
      if (now) return
      drawn.value = true
      stop()
    })
  }
  return readonly(drawn)
}
