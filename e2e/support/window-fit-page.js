/* global document, window, getComputedStyle */
/**
 * What does not fit, checked in the browser, as readable lines (empty when it all fits):
 * the document scrolling sideways; a scroll with nothing below to scroll to; a control
 * (button, link, select, field) not wholly in the viewport once scrolled to, cut off by a
 * box that clips it, or covered by something else; a name, count badge or tab cut off.
 * `within` limits the controls looked at (an open overlay).
 */
// Run in the page (window-fit.ts reads this file and hands it to page.evaluate): plain
// JavaScript with the page's DOM, which the tests' own TypeScript has no types for.
/** @param {string | null} scope */
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- the file is an expression: page.evaluate calls it
(function layoutProblems(scope) {
  const problems = []
  const startX = window.scrollX
  const startY = window.scrollY
  const doc = document.documentElement
  const say = (el) => {
    const label = el.getAttribute('aria-label') ?? el.getAttribute('data-testid') ?? (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
    return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''} "${label}"`
  }
  if (doc.scrollWidth > doc.clientWidth) problems.push(`the page scrolls sideways (${doc.scrollWidth} px wide in ${doc.clientWidth})`)

  // A vertical scroll is stray when the page is taller than what is in it: the lowest
  // content of the main area or the sidebar, plus the main area's bottom padding.
  const main = document.querySelector('main')
  const padding = main ? parseFloat(getComputedStyle(main).paddingBottom) : 0
  // (Each box's own bottom margin too: the last one's can reach past its parents.)
const bottoms = [...document.querySelectorAll('.topbar, main *, .switcher *')].map((el) => el.getBoundingClientRect().bottom + parseFloat(getComputedStyle(el).marginBottom) + window.scrollY)
const contentBottom = Math.ceil(Math.max(0, ...bottoms) + padding)
  if (doc.scrollHeight > doc.clientHeight + 1 && doc.scrollHeight > contentBottom + 1) {
    problems.push(`the page scrolls ${doc.scrollHeight - doc.clientHeight} px though its content ends ${doc.scrollHeight - contentBottom} px above its end`)
  }

  const root = scope ? document.querySelector(scope) : document.body
  const controls = [...(root?.querySelectorAll('button, a[href], select, input:not([type="hidden"]), textarea, summary') ?? [])]
  for (const el of controls) {
    if (el.closest('.visually-hidden, .skip-link')) continue
    if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue
    // Inside a closed <details> (its summary aside): Chromium keeps a box for it, but it is
    // not shown and cannot be scrolled to until the person opens it.
    const closed = el.closest('details:not([open])')
    if (closed && !(el.tagName === 'SUMMARY' && el.parentElement === closed)) continue
    const at = el.getBoundingClientRect()
    // Scrolled to, as a person would, where it is not in view; only as far as needed
    // (the page does not move for an open menu's items, which would close it).
    if (at.top < 0 || at.bottom > doc.clientHeight || at.left < 0 || at.right > doc.clientWidth) el.scrollIntoView({ block: 'center', inline: 'nearest' })
    else el.scrollIntoView({ block: 'nearest', inline: 'nearest' })
    const r = el.getBoundingClientRect()
    if (r.width < 1 || r.height < 1) continue
    if (r.left < -0.5 || r.top < -0.5 || r.right > doc.clientWidth + 0.5 || r.bottom > doc.clientHeight + 0.5) {
      problems.push(`${say(el)} is not wholly in the window (${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)})`)
      continue
    }
    // (A box placed fixed, an open menu, is clipped by nothing around it but itself.)
    const fixed = el.closest('.actions-menu-list')
    for (let box = el.parentElement; box && box !== document.body && (!fixed || fixed.contains(box)); box = box.parentElement) {
      const style = getComputedStyle(box)
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
      const b = box.getBoundingClientRect()
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) {
        problems.push(`${say(el)} is cut off by ${say(box)}`)
        break
      }
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    // A toast floats over the content for a few seconds by design (announced, dismissable,
    // out of the way once read): what it passes over is not covered for good.
    if (hit && hit !== el && !el.contains(hit) && !hit.closest('[data-toasts]')) problems.push(`${say(el)} is covered by ${say(hit)}`)
  }
  // Names and badges whole: a group's or person's name not cut to "@admi…", a count on its tab's line.
  for (const el of (root ?? document.body).querySelectorAll('.member-handle, .tab .count, .switcher .count')) {
    if (el.getClientRects().length === 0) continue
    const r = el.getBoundingClientRect()
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      const style = getComputedStyle(box)
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
      const b = box.getBoundingClientRect()
      if (r.right > b.right + 0.5 || r.left < b.left - 0.5) problems.push(`${say(el)} is cut off by ${say(box)}`)
      break
    }
  }
  for (const tab of (root ?? document.body).querySelectorAll('.tab')) {
    const count = tab.querySelector('.count')
    if (tab.getClientRects().length && tab.getClientRects().length > 1) problems.push(`${say(tab)} breaks over lines`)
    if (count && (count.getBoundingClientRect().top >= tab.getBoundingClientRect().bottom || count.getBoundingClientRect().left < tab.getBoundingClientRect().left)) {
      problems.push(`${say(tab)} has its count outside it`)
    }
  }
  // Answer chips side by side, not a narrow column of one per line.
  for (const rsvp of (root ?? document.body).querySelectorAll('.cal-rsvp')) {
    const tops = new Set([...rsvp.querySelectorAll('button')].map((b) => Math.round(b.getBoundingClientRect().top)))
    if (tops.size > 2) problems.push(`the answer buttons of ${say(rsvp)} stack on ${tops.size} lines`)
  }
  // Back where it was (only if moved: a scroll closes an open menu).
  if (window.scrollX !== startX || window.scrollY !== startY) window.scrollTo(startX, startY)
  return problems
})
