import type { Page } from '@playwright/test'
import { test, expect, startActingAsGroup } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { axeViolations } from './support/axe.js'

// About the network's seeded demo groups, so with the seeded people (fixtures.ts, `cast`).
test.use({ cast: 'demo' })

/**
 * The person's part on the group host's pages: their own handle, their own PDS's sign-in
 * and consent (the host asks it for `atproto` only), then the host's consent for Convene,
 * which names the group, the person and their role.
 */
async function consentOnHost(host: Page, person: { handle: string; password: string }, groupHandle: string) {
  await host.getByLabel('Your handle').fill(person.handle)
  await host.getByRole('button', { name: 'Continue' }).click()
  await host.locator('input[name=password]').fill(person.password)
  await host.getByRole('button', { name: 'Sign in' }).click()
  await host.getByRole('button', { name: 'Authorize' }).click()
  const allow = host.getByRole('button', { name: 'Allow' })
  await allow.waitFor()
  // The app named in words that fit the question (a development client cannot carry a name).
  await expect(host.getByRole('heading', { level: 1 })).toHaveText(/^Let an app on this computer act as .+\?$/)
  const consent = host.locator('main')
  await expect(consent).toContainText('A development build: it cannot prove its name')
  await expect(consent).not.toContainText('(development client)')
  await expect(consent).toContainText(groupHandle)
  await expect(consent).toContainText(person.handle)
  await expect(consent).toContainText('owner')
  await allow.click()
  await expect(host.getByRole('heading', { name: 'You can close this tab' })).toBeVisible()
  await host.close()
}

test.describe('act as a group', () => {
  test('signs in with the group’s handle on its host’s pages, shows what it may do, adds an event as the group, and signs out', async ({ page, app }, testInfo) => {
    const owner = app.stack.accounts.find((a) => a.name === 'owner')!
    const group = app.stack.groups.find((g) => g.name === 'open')!
    // The group's calendar, started by an organizer (a group session only writes in it).
    // Another spec may have started it already; either way it exists afterwards.
    const organizer = await asPeer(app.stack, 'owner')
    await organizer.call('example.groups.createSpace', {
      group: group.did,
      type: 'community.lexicon.calendar',
      skey: 'self',
      name: 'Calendar',
      readableBy: ['owner', 'admin', 'moderator', 'member'],
      credentialScopes: [{ role: 'owner', scopes: ['community.lexicon.calendar.event'] }],
    })

    await app.open(page)
    // Beside adding an account, reached with the keyboard.
    const entry = page.getByRole('link', { name: 'Act as a group' })
    await entry.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { name: 'Act as a group', level: 1 })).toBeVisible()
    // When to use it, in a sentence.
    await expect(page.getByTestId('act-as-group-about')).toContainText('as the group itself rather than as you')
    await expect(page.getByTestId('group-sessions-empty')).toBeVisible()

    const host = await startActingAsGroup(page, group.handle)
    expect(new URL(host.url()).origin).toBe(new URL(app.stack.host.url).origin)
    // While the host's pages are open the app says where the sign-in is.
    await expect(page.getByTestId('group-sign-in-progress')).toContainText('group host’s page')
    await consentOnHost(host, owner, group.handle)

    const card = page.getByTestId(`group-session-${group.handle}`)
    await expect(card.getByRole('heading', { name: `Acting as @${group.handle}` })).toBeVisible()
    await expect(card.getByTestId('group-abilities')).toContainText('Add events to the group’s calendar')
    const switcher = page.getByTestId('switcher-acting-as')
    await expect(switcher).toContainText(`@${group.handle}`)
    await expect(switcher).toContainText('May add, change and remove calendar events')
    await page.screenshot({ path: testInfo.outputPath('acting-as-group.png'), fullPage: true })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      expect(await axeViolations(page), scheme).toEqual([])
    }

    // The calendar's own event form.
    await card.getByRole('button', { name: 'Add an event as the group…' }).click()
    const form = page.getByRole('dialog', { name: 'New event' })
    await form.getByLabel('Name').fill('Picnic, as the group')
    await form.getByLabel('Start date').fill(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10))
    await form.getByLabel('Start time').fill('12:30')
    await form.getByRole('button', { name: 'Add event' }).click()
    await expect(form).toBeHidden()
    await expect(card.getByTestId('event-as-group-result')).toHaveText(`Added “Picnic, as the group” to the calendar as @${group.handle}.`)

    await card.getByRole('button', { name: `Stop acting as @${group.handle}` }).click()
    await expect(page.getByTestId('group-sessions-empty')).toBeVisible()
    await expect(switcher).toHaveCount(0)
  })

  test('from a group’s Advanced tab, one link leads to acting as it, its handle filled in', async ({ page, app, signedIn: _owner }) => {
    const group = app.stack.groups.find((g) => g.name === 'open')!
    const switcher = page.getByRole('navigation', { name: 'Your groups' })
    await switcher.getByTestId(`group-link-${group.handle}`).click()
    await page.getByRole('navigation', { name: 'Group sections' }).getByRole('link', { name: 'Advanced' }).click()
    const entry = page.getByTestId('act-as-this-group')
    await expect(entry).toContainText('rather than as you')
    await entry.getByRole('link', { name: `Act as @${group.handle}…` }).click()
    await expect(page.getByRole('heading', { name: 'Act as a group', level: 1 })).toBeVisible()
    await expect(page.getByLabel('The group’s handle')).toHaveValue(group.handle)
    await expect(page.getByRole('button', { name: 'Act as this group' })).toBeFocused()
  })

  test('a handle with a space is named before anything is sent', async ({ page, app }) => {
    await app.open(page)
    await page.getByRole('link', { name: 'Act as a group' }).click()
    await page.getByLabel('The group’s handle').fill('open group.groups.test')
    await page.getByRole('button', { name: 'Act as this group' }).click()
    await expect(page.getByTestId('group-handle-problem')).toHaveText(/^A handle has no spaces\. A handle looks like bookclub\.example\.com/)
    await expect(page.getByTestId('group-sign-in-progress')).toHaveCount(0)
  })

  test('a handle that is not a group’s gets a clear error', async ({ page, app }) => {
    const owner = app.stack.accounts.find((a) => a.name === 'owner')!
    await app.open(page)
    await page.getByRole('link', { name: 'Act as a group' }).click()
    await page.getByLabel('The group’s handle').fill(owner.handle)
    await page.getByRole('button', { name: 'Act as this group' }).click()
    await expect(page.getByTestId('group-sign-in-error')).toContainText('is not a group')
  })
})
