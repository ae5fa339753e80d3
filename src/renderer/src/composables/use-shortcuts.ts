import { onBeforeUnmount } from 'vue'

/**
 * Keys that work anywhere in the window: single keys (`/`, `?`, `]`) and two-key
 * sequences (`g m`: go to members), as in mail and code-review tools. A sequence's
 * second key must come within SEQUENCE_MS of the first.
 */
export interface Shortcut {
  /** One key, or a sequence: ['g', 'm']. Letters lower-case. */
  keys: string[]
  run: () => void
}

const SEQUENCE_MS = 1_500

/** Where typing means text, not a command: form fields and anything editable. */
function typingInto(target: EventTarget | null) {
  const el = target as HTMLElement | null
  if (!el?.closest) return false
  return Boolean(el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]'))
}

/** The first key of a sequence just typed (one window, one keyboard: module state). */
let prefix: string | null = null
let prefixAt = 0

/**
 * Whether the next key finishes a sequence (`g` was just typed), so keys that mean
 * something on a focused row (`r`: resolve) leave it to the sequence (`g r`).
 */
export const awaitingSecondKey = () => prefix !== null && performance.now() - prefixAt < SEQUENCE_MS

/** Installs the window's shortcuts while the calling component is mounted. */
export function useShortcuts(shortcuts: () => Shortcut[]) {
  function onKeydown(event: KeyboardEvent) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return
    if (typingInto(event.target)) return
    // A modal dialog keeps the keyboard to itself.
    if (document.querySelector('dialog[open]')) return
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key
    const now = performance.now()
    const pressed = prefix && now - prefixAt < SEQUENCE_MS ? [prefix, key] : [key]
    prefix = null
    const list = shortcuts()
    const match = list.find((s) => s.keys.length === pressed.length && s.keys.every((k, i) => k === pressed[i]))
    if (match) {
      event.preventDefault()
      match.run()
      return
    }
    if (pressed.length === 1 && list.some((s) => s.keys.length === 2 && s.keys[0] === key)) {
      prefix = key
      prefixAt = now
    }
  }
  document.addEventListener('keydown', onKeydown)
  onBeforeUnmount(() => document.removeEventListener('keydown', onKeydown))
}
