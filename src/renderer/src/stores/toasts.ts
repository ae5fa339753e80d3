import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'

/**
 * The window's one way of saying what an action did (issue 26): a short line near the
 * work, read out politely (errors at once), with at most one button beside it: Undo
 * while the action is held back, or what the person can do instead once it was sent.
 * Views say what happened and to whom; they do not keep banners of their own for it.
 */
export interface ToastButton {
  label: string
  run: () => unknown
  /** An Undo: Ctrl/Cmd+Z runs the newest one while it is shown. */
  undo?: boolean
}
export interface Toast {
  id: number
  text: string
  tone: 'done' | 'error'
  button?: ToastButton
}

/** How long a line stays when nothing is to be done with it. */
export const TOAST_MS = 6_000
/** An error, or a line with a button, stays longer: there is something to read or do. */
const LONGER_MS = 10_000
/** More than this and the oldest goes: the newest are what the person just did. */
const MOST = 3

export const useToastsStore = defineStore('toasts', () => {
  const toasts = ref<Toast[]>([])
  /** The open modal dialogs, innermost last: the lines are shown inside it (outside is inert). */
  const dialogs = shallowRef<HTMLElement[]>([])
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  let next = 1
  let paused = false

  function arm(id: number, ms: number) {
    clearTimeout(timers.get(id))
    timers.set(id, setTimeout(() => (paused ? arm(id, 1_000) : dismiss(id)), ms))
  }

  /** Shows a line; `ms` how long it stays (longer when it has a button). Returns its id, to replace it. */
  function show(text: string, opts: { button?: ToastButton; tone?: Toast['tone']; ms?: number; replaces?: number } = {}): number {
    if (opts.replaces !== undefined) dismiss(opts.replaces)
    const toast: Toast = { id: next++, text, tone: opts.tone ?? 'done', ...(opts.button ? { button: opts.button } : {}) }
    toasts.value = [...toasts.value, toast].slice(-MOST)
    arm(toast.id, opts.ms ?? (opts.button || toast.tone === 'error' ? LONGER_MS : TOAST_MS))
    return toast.id
  }
  /** An action that could not be done, in the core's plain words. */
  const fail = (text: string, replaces?: number) => show(text, { tone: 'error', replaces })

  function dismiss(id: number) {
    clearTimeout(timers.get(id))
    timers.delete(id)
    toasts.value = toasts.value.filter((t) => t.id !== id)
  }

  /** Runs the newest Undo shown (Ctrl/Cmd+Z); false when there is none. */
  function undoNewest(): boolean {
    const t = [...toasts.value].reverse().find((x) => x.button?.undo)
    if (!t) return false
    void t.button!.run()
    return true
  }

  /** While the pointer or focus is on the lines, none goes (a line is not taken from under the person). */
  function pause(on: boolean) {
    paused = on
  }

  function dialogOpened(el: HTMLElement) {
    dialogs.value = [...dialogs.value, el]
  }
  function dialogClosed(el: HTMLElement) {
    dialogs.value = dialogs.value.filter((d) => d !== el)
  }

  return { toasts, dialogs, show, fail, dismiss, undoNewest, pause, dialogOpened, dialogClosed }
})
