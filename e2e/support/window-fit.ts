import fs from 'node:fs'
import { expect, type Page } from '@playwright/test'
import type { AppUnderTest } from './fixtures.js'
import { asPeer } from './peer.js'
import { startGroup } from './start-group.js'
import { seedCachedInvites, seedCachedJoinRequests, seedCachedMembers, seedCachedSubjects } from '../../test/support/seed-cache.js'

/**
 * The window sizes an organizer meets (issue 26): a small laptop window, and a 1280x860
 * window at 200 % zoom, which is what Chromium lays out at zoom 2: a 640x430 CSS-pixel
 * viewport drawn at two device pixels per CSS pixel (the fixture's page is made with
 * deviceScaleFactor 2 for it).
 */
export const WINDOW_SIZES = [
  { name: '900x700', width: 900, height: 700, scale: 1 },
  { name: '1280x860 at 200 % zoom', width: 640, height: 430, scale: 2 },
] as const

/** A group of the test's own with something in every list, for the screens to show. */
export async function groupWithEverything(page: Page, app: AppUnderTest, ownerDid: string) {
  // Its own name: the stack's groups outlive a test, and the sidebar lists them all.
  const name = `Neighbourhood book circle ${Date.now().toString(36)}`
  const group = await startGroup(page, { prefix: 'fit', name, policy: 'approval', section: 'Calendar' })
  // One real event, with its answer buttons.
  await page.getByRole('button', { name: 'New event' }).click()
  const form = page.getByRole('dialog', { name: 'New event' })
  await form.getByLabel('Name').fill('Reading night at the library')
  await form.getByLabel('Start date').fill(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10))
  await form.getByLabel('Start time').fill('19:00')
  await form.getByRole('button', { name: 'Add an address' }).click()
  await form.getByLabel('Place name').fill('Central library, second floor reading room')
  await form.getByLabel('Country code').fill('GB')
  await form.getByRole('button', { name: 'Add event' }).click()
  await expect(form).toBeHidden()
  // A real person asking, then lists as a busy group's would be (seeded: faster than people).
  const asking = await asPeer(app.stack, 'outsider')
  await asking.call('example.groups.requestJoin', { group: group.groupDid, message: 'I read a lot of science fiction and would love to join the circle' })
  await seedCachedJoinRequests(app.dataDir, ownerDid, group.groupDid, 3, { message: (i) => `Hello, I am neighbour number ${i} and I would like to join the reading circle please` })
  await seedCachedMembers(app.dataDir, ownerDid, group.groupDid, 4, { handle: (i) => (i === 0 ? 'administrator.example.test' : `reader${i}.test`) })
  await seedCachedSubjects(app.dataDir, ownerDid, group.groupDid, 3)
  await seedCachedInvites(app.dataDir, ownerDid, group.groupDid, 3)
  return { ...group, name }
}

/** The main screens, by their address in the window (the router's hash) and what shows once there. */
export function mainScreens(accountDid: string, groupDid: string) {
  const g = `#/g/${encodeURIComponent(accountDid)}/${encodeURIComponent(groupDid)}`
  return [
    { name: 'groups home', hash: '#/groups', ready: { role: 'heading', name: 'Your groups' } },
    { name: 'join requests', hash: `${g}/requests`, ready: { testid: 'requests-list' } },
    { name: 'members', hash: `${g}/members`, ready: { testid: 'members-list' } },
    { name: 'moderation', hash: `${g}/moderation`, ready: { testid: 'subjects-list' } },
    { name: 'calendar', hash: `${g}/calendar`, ready: { role: 'heading', name: 'Reading night at the library' } },
    { name: 'invites', hash: `${g}/invites`, ready: { testid: 'invites-list' } },
    { name: 'spaces', hash: `${g}/spaces`, ready: { testid: 'spaces-list' } },
    { name: 'pending changes', hash: '#/outbox', ready: { role: 'heading', name: 'Changes not yet confirmed' } },
    { name: 'accounts', hash: '#/sign-in', ready: { testid: 'account-list' } },
    { name: 'today', hash: '#/today', ready: { testid: 'today-list' } },
  ] as const
}
export type Screen = ReturnType<typeof mainScreens>[number]

export async function visit(page: Page, screen: Screen) {
  await page.evaluate(`location.hash = ${JSON.stringify(screen.hash)}`)
  const ready = 'testid' in screen.ready ? page.getByTestId(screen.ready.testid) : page.getByRole('heading', { name: screen.ready.name }).first()
  await expect(ready.first(), screen.name).toBeVisible()
  // Lists paint their rows a frame after their page lands.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))')
}

/**
 * What does not fit, checked in the browser, as readable lines (empty when it all fits):
 * the document scrolling sideways; a scroll with nothing below to scroll to; a control
 * (button, link, select, field) not wholly in the viewport once scrolled to, cut off by a
 * box that clips it, or covered by something else; a name, count badge or tab cut off.
 * `within` limits the controls looked at (an open overlay).
 */
export function layoutProblems(page: Page, within?: string): Promise<string[]> {
  return page.evaluate(`${IN_PAGE}(${JSON.stringify(within ?? null)})`)
}
const IN_PAGE = fs.readFileSync(new URL('./window-fit-page.js', import.meta.url), 'utf8')
