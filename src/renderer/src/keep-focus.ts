/**
 * Gives focus back to a control that was disabled while its work ran. Buttons here are
 * disabled while busy (Sync now, Send invite, Withdraw request…), and Chromium then moves
 * focus to the page itself: a keyboard user who pressed Enter would find the next Tab
 * starting again from the top of the window. When the control is enabled again and focus
 * is still nowhere, it returns to that control. Anything focused meanwhile (a click, a
 * dialog, a new view) wins, and a control that is gone is forgotten.
 */
export function keepFocusThroughBusy(doc: Document = document): () => void {
  let parked: HTMLElement | null = null
  const nowhere = () => !doc.activeElement || doc.activeElement === doc.body

  const onFocusOut = (event: FocusEvent) => {
    const el = event.target
    // Focus leaving for nothing, from a control that is now disabled: it was taken away.
    if (!event.relatedTarget && el instanceof HTMLElement && el.matches(':disabled')) parked = el
  }
  const onFocusIn = () => {
    parked = null
  }
  const observer = new MutationObserver(() => {
    if (!parked) return
    if (!parked.isConnected || !nowhere()) {
      parked = null
      return
    }
    if (!parked.matches(':disabled')) {
      const el = parked
      parked = null
      el.focus({ preventScroll: true })
    }
  })
  doc.addEventListener('focusout', onFocusOut, true)
  doc.addEventListener('focusin', onFocusIn, true)
  observer.observe(doc.body, { subtree: true, attributes: true, attributeFilter: ['disabled'] })
  return () => {
    doc.removeEventListener('focusout', onFocusOut, true)
    doc.removeEventListener('focusin', onFocusIn, true)
    observer.disconnect()
  }
}
