import type { Locator, Page } from '@playwright/test'
import { test, expect, type AppUnderTest } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { openSection, startGroup, syncNow } from './support/start-group.js'
import { hangHost } from './support/stack-control.js'
import type { StackAccountName } from '../src/shared/stack-file.js'

/** The core's time limit for the hung host below (the app's own is 15 s). */
test.use({ hostTimeoutMs: 2_000 })

const EVENT = 'community.lexicon.calendar.event'

/** A demo person as the seed made them: handle and display name (src/stack/seed.ts). */
const person = (app: AppUnderTest, name: StackAccountName) => app.stack.accounts.find((a) => a.name === name)!

/** Shows the person by name and face: their display name, their avatar picture and their @handle, and no DID. */
async function expectFace(where: Locator, who: { displayName: string; handle: string }) {
  await expect(where.getByTestId('person-name').first()).toHaveText(who.displayName, { timeout: 20_000 })
  await expect(where).toContainText(`@${who.handle}`)
  await expect(where.locator('img.person-avatar').first()).toHaveAttribute('src', /^data:image\/png;base64,/)
  await expect(where).not.toContainText('did:')
}

/** The DID one click away: a labelled button copies it. */
async function expectDidCopyable(page: Page, where: Locator, did: string, displayName: string) {
  await where.getByRole('button', { name: `Copy the DID of ${displayName}` }).first().click()
  await expect(where.getByRole('status').filter({ hasText: 'DID copied' })).toHaveCount(1)
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(did)
}

test.describe('people by name and face', () => {
  test.beforeEach(async ({ context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  })

  test('an invite sent by handle shows the invitee’s name and face, also after a refresh', async ({ page, app, signedIn: _owner }) => {
    const oona = person(app, 'outsider2')
    await startGroup(page, { prefix: 'faces-inv', name: 'Sketch club', policy: 'invite', section: 'Invites' })
    await page.getByLabel('Their handle or DID').fill(`@${oona.handle}`)
    await page.getByRole('button', { name: 'Send invite' }).click()
    const row = page.getByTestId(`invite-${oona.did}`)
    await expectFace(row, oona)
    await syncNow(page)
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date', { timeout: 20_000 })
    await expectFace(row, oona)
    await expectDidCopyable(page, row, oona.did, oona.displayName)
  })

  test('a join request from someone who was a member before says so, and how they went', async ({ page, app, signedIn: _owner }) => {
    const otto = person(app, 'outsider')
    const { groupDid } = await startGroup(page, { prefix: 'faces-past', name: 'Choir', policy: 'approval', section: 'Join requests' })
    const asking = await asPeer(app.stack, 'outsider')
    const owner = await asPeer(app.stack, 'owner')
    // Their first request is on screen (nothing to say about their past yet) ...
    expect((await asking.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('pending')
    await syncNow(page)
    const row = page.getByTestId(`request-${otto.did}`)
    await expectFace(row, otto)
    await expect(row.getByTestId('past-member')).toHaveCount(0)
    // ... then they were in the group, and left; now they ask again, and the row says so.
    expect((await owner.call('example.groups.admitMember', { group: groupDid, did: otto.did, decision: 'admit' })).status).toBe(200)
    expect((await asking.call('example.groups.leaveGroup', { group: groupDid })).status).toBe(200)
    expect((await asking.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('pending')
    await syncNow(page)
    await expectFace(row, otto)
    await expect(row.getByTestId('past-member')).toContainText('Was a member before')
  })

  test('a join request shows who asks: name, face, bio and account age; a pending admit names them, never by DID', async ({ page, app, signedIn: _owner }, testInfo) => {
    test.setTimeout(120_000)
    const otto = person(app, 'outsider')
    const { groupDid } = await startGroup(page, { prefix: 'faces-req', name: 'Board games', policy: 'approval', section: 'Join requests' })
    const asking = await asPeer(app.stack, 'outsider')
    expect((await asking.call('example.groups.requestJoin', { group: groupDid, message: 'Saw the poster' })).body.status).toBe('pending')
    await syncNow(page)

    const row = page.getByTestId(`request-${otto.did}`)
    await expectFace(row, otto)
    await expect(row.getByTestId('request-about')).toContainText('Saw the poster')
    await expect(row.getByTestId('request-about')).toContainText('New in town, likes board games.')
    await expect(row.getByTestId('request-about')).toContainText('account created')
    await page.screenshot({ path: testInfo.outputPath('join-request-faces.png'), fullPage: true })

    // The host stops answering: the admit waits in the pending changes, said with the person's name.
    const bringBack = await hangHost()
    try {
      await row.getByRole('button', { name: /^Admit / }).click()
      await expect(page.getByTestId('connection-state')).toHaveText('Host not answering · 1 waiting', { timeout: 12_000 })
      await page.getByTestId('connection-state').click()
      const pending = page.getByTestId('outbox-list').locator('li')
      await expect(pending).toHaveCount(1)
      await expect(pending).toContainText(`Admit ${otto.displayName} (@${otto.handle})`)
      await expect(pending).not.toContainText('did:')
      await page.screenshot({ path: testInfo.outputPath('pending-change-names.png'), fullPage: true })
    } finally {
      await bringBack()
    }
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date', { timeout: 30_000 })
  })

  test('the moderation queue and pane name the reported person and event, and the reporter, by name', async ({ page, app, signedIn: _owner }, testInfo) => {
    test.setTimeout(180_000)
    const mina = person(app, 'member')
    const otto = person(app, 'outsider')
    const { groupDid } = await startGroup(page, { prefix: 'faces-mod', name: 'Kite flyers', policy: 'open', section: 'Calendar' })
    const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
    await page.getByRole('button', { name: 'New event' }).click()
    const form = page.getByRole('dialog', { name: 'New event' })
    await form.getByLabel('Name').fill('Kite picnic')
    await form.getByLabel('Start date').fill(day)
    await form.getByLabel('Start time').fill('11:00')
    await form.getByRole('button', { name: 'Add event' }).click()
    await expect(page.getByRole('button', { name: 'Report Kite picnic' })).toBeVisible({ timeout: 20_000 })

    // Two people join; one reports the event, the other reports the first.
    const member = await asPeer(app.stack, 'member')
    const outsider = await asPeer(app.stack, 'outsider')
    for (const p of [member, outsider]) expect((await p.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    const space = `at://${groupDid}/space/community.lexicon.calendar/self`
    const events = async () => (await member.query('com.atproto.space.listRecords', { space, repo: groupDid, collection: EVENT })).body.records as { uri: string }[]
    await expect.poll(async () => (await events()).length, { timeout: 20_000 }).toBe(1)
    const eventUri = (await events())[0]!.uri
    const spam = 'com.atproto.moderation.defs#reasonSpam'
    expect((await member.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectRecord', uri: eventUri }, reasonType: spam })).status).toBe(200)
    expect((await outsider.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: mina.did }, reasonType: spam })).status).toBe(200)

    await openSection(page, 'Moderation')
    await syncNow(page)
    const accountRow = page.getByTestId(`subject-${mina.did}`)
    const eventRow = page.getByTestId(`subject-${eventUri}`)
    await expectFace(accountRow, mina)
    await expect(eventRow.getByTestId('subject-record')).toHaveText(/^Kite picnic · /, { timeout: 20_000 })
    await expect(eventRow).toContainText('Event')
    const queue = page.getByTestId('subjects-list')
    await expect(queue).not.toContainText('did:')
    await expect(queue).not.toContainText('at://')
    await page.screenshot({ path: testInfo.outputPath('moderation-faces.png'), fullPage: true })

    // The pane's title says what it is about, and the reports name the reporter.
    await accountRow.getByRole('button', { name: /^Review the report/ }).click()
    const pane = page.getByTestId('subject-pane')
    await expect(pane.getByRole('heading', { name: `Report about ${mina.displayName} (@${mina.handle})` })).toBeVisible()
    await expect(pane.getByTestId('pane-reports')).toContainText(`${otto.displayName} (@${otto.handle})`, { timeout: 20_000 })
    await expect(pane.getByTestId('pane-shown')).toContainText(mina.displayName)
    await expect(pane.getByTestId('pane-shown')).not.toContainText('did:')
    await page.keyboard.press('Escape')
    await expect(pane).toBeHidden()

    await eventRow.getByRole('button', { name: /^Review the report/ }).click()
    await expect(pane.getByRole('heading', { name: /^Report about the event “Kite picnic” on / })).toBeVisible()
    await expect(pane.getByTestId('pane-reports')).toContainText(`${mina.displayName} (@${mina.handle})`, { timeout: 20_000 })
    await expect(pane.getByTestId('pane-history')).toContainText(`${mina.displayName} (@${mina.handle})`)
    await expect(pane).not.toContainText('did:')
    await expect(pane).not.toContainText('at://')
    await page.screenshot({ path: testInfo.outputPath('moderation-pane-event.png'), fullPage: true })
  })

  test('a member row shows the name and face, "you" for oneself, and no DID', async ({ page, app, signedIn: _owner }) => {
    const olivia = person(app, 'owner')
    await startGroup(page, { prefix: 'faces-mem', name: 'Choir', policy: 'open', section: 'Members' })
    const row = page.getByTestId(`member-${olivia.did}`)
    await syncNow(page)
    await expectFace(row, olivia)
    await expect(row.getByText('you', { exact: true })).toBeVisible()
  })
})
