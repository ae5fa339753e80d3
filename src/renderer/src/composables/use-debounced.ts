import { ref, watch, type Ref } from 'vue'

/**
 * Follows `source` once it has stayed put for `ms` (a search box: the core searches once
 * the person pauses, not on every letter). Emptying it follows at once.
 */
export function useDebounced(source: () => string, ms = 150): Ref<string> {
  const value = ref(source())
  let timer: ReturnType<typeof setTimeout> | undefined
  watch(source, (next) => {
    clearTimeout(timer)
    if (next === '') value.value = next
    else timer = setTimeout(() => (value.value = next), ms)
  })
  return value
}
