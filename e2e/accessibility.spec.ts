import type { Page } from '@playwright/test'
import { test, expect, signInThroughPds } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { axeViolations } from './support/axe.js'
import { openSection, startGroup, syncNow } from './support/start-group.js'

/**
 * The WCAG 2.1 A and AA rules whose outcome depends on colour. Dark differs from light in
 * colours only (base.css sets the same custom properties to other values, nothing else),
 * so the dark pass runs these; every rule runs in light.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block']

/**
 * Waits until no contract call has been in flight for a moment (200 ms). Not 'networkidle':
 * the loopback shell's notice stream stays open for as long as the page, by design, so
 * the network is never idle. (In Electron, calls are not network requests: this waits
 * that moment.)
 */
async function callsSettled(page: Page) {
  let inFlight = 0
  let quietSince = Date.now()
  const isCall = (url: string) => url.includes('/ipc/')
  const started = (req: { url(): string }) => {
    if (isCall(req.url())) inFlight++
  }
  const ended = (req: { url(): string }) => {
    if (!isCall(req.url())) return
    // Calls started before this began end here too: never below zero.
    inFlight = Math.max(0, inFlight - 1)
    quietSince = Date.now()
  }
  page.on('request', started)
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  try {
    await expect.poll(() => inFlight === 0 && Date.now() - quietSince >= 200, { timeout: 15_000, intervals: [50] }).toBe(true)
  } finally {
    page.off('request', started)
    page.off('requestfinished', ended)
    page.off('requestfailed', ended)
  }
}

test.describe('accessibility', () => {
  // The admission below is one person's, which the window holds 6 s for Undo; this test is
  // about every screen, not the wait (a held row and its toast pass axe in e2e/undo.spec.ts).
  test.use({ undoHoldMs: 0 })
  test('every screen has names for its controls and passes axe (WCAG 2.1 AA), in light and dark', async ({ page, app }) => {
    // About thirty axe scans of whole screens and dialogs: a minute of work on a loaded
    // two-core machine, before the sign-in and the group it makes.
    test.setTimeout(180_000)
    const owner = app.stack.accounts.find((a) => a.name === 'owner')!
    await app.open(page)
    expect(await axeViolations(page)).toEqual([])
    await signInThroughPds(page, owner.handle, owner.password)
    expect(await axeViolations(page)).toEqual([])
    const { groupDid } = await startGroup(page, { prefix: 'a11y', name: 'Readers', policy: 'approval', section: 'Join requests' })
    // Something in each list: a request, a member, an invite, a report.
    const asking = await asPeer(app.stack, 'outsider')
    await asking.call('example.groups.requestJoin', { group: groupDid, message: 'Hello' })
    const member = await asPeer(app.stack, 'member')
    await member.call('example.groups.requestJoin', { group: groupDid })
    await syncNow(page)
    await page.getByRole('button', { name: `Admit ${member.did}` }).click()
    await expect(page.getByTestId(`request-${asking.did}`)).toBeVisible()
    await expect(page.getByTestId(`request-${member.did}`)).toHaveCount(0, { timeout: 15_000 })
    // Only a member may report, and the admission may still be on its way to the host: a
    // refused report stores nothing, so asking again until it is taken makes exactly one.
    const report = () => member.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: asking.did }, reasonType: 'spam' })
    await expect.poll(async () => (await report()).status, { timeout: 15_000 }).toBe(200)
    await syncNow(page)

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      const rules = scheme === 'dark' ? COLOUR_RULES : undefined
      for (const section of ['Join requests', 'Members', 'Invites', 'Moderation', 'Calendar', 'Advanced']) {
        await openSection(page, section)
        await expect(page.getByRole('heading', { name: 'Readers' })).toBeVisible()
        await callsSettled(page)
        expect(await axeViolations(page, { rules }), `${section} (${scheme})`).toEqual([])
      }
      // And the dialogs, open.
      const dialogs: [string, string][] = [
        ['Members', `Remove ${member.did}`],
        ['Moderation', `Resolve the report about ${asking.did}`],
        ['Calendar', 'New event'],
        ['Advanced', 'Shortcuts'],
      ]
      for (const [section, opener] of dialogs) {
        await openSection(page, section)
        await page.getByRole('button', { name: opener }).click()
        await expect(page.locator('dialog[open]')).toBeVisible()
        expect(await axeViolations(page, { rules }), `${opener} dialog (${scheme})`).toEqual([])
        await page.keyboard.press('Escape')
        await expect(page.locator('dialog[open]')).toHaveCount(0)
      }
      await page.getByTestId('connection-state').click()
      expect(await axeViolations(page, { rules }), `pending changes (${scheme})`).toEqual([])
      await page.getByRole('link', { name: 'Readers' }).click()
    }
  })
})
