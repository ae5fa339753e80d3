import { test, expect, watchListPages, openSignedIn } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { openSection, startGroup, syncNow } from './support/start-group.js'
import { seedCachedMembers } from '../test/support/seed-cache.js'

test.describe('members and roles', () => {
  test('an owner finds members by searching, gives and takes a role, and removes someone', async ({ page, app, signedIn: owner }, testInfo) => {
    const { groupDid } = await startGroup(page, { prefix: 'members', name: 'Garden club', policy: 'open', section: 'Members' })

    // Two people join the open group elsewhere.
    const member = await asPeer(app.stack, 'member')
    const outsider = await asPeer(app.stack, 'outsider')
    for (const p of [member, outsider]) expect((await p.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    await syncNow(page)
    const memberRow = page.getByTestId(`member-${member.did}`)
    const outsiderRow = page.getByTestId(`member-${outsider.did}`)
    await expect(memberRow).toBeVisible()
    await expect(outsiderRow).toBeVisible()
    await expect(page.getByTestId(`roles-${owner.did}`)).toContainText('owner')
    await expect(page.getByTestId(`roles-${member.did}`)).toContainText('member')
    // Whether each has accepted (written their acceptance record) is shown in words.
    await expect(memberRow).toContainText('Has not accepted yet')
    await expect(page.getByTestId('member-count')).toHaveText('3 members')
    // The reference host names members by DID only; each handle is looked up and shown.
    const memberHandle = app.stack.accounts.find((a) => a.name === 'member')!.handle
    await expect(memberRow).toContainText(`@${memberHandle}`, { timeout: 15_000 })

    // The search filters as you type, by any part of the DID.
    const search = page.getByLabel('Search members')
    await search.pressSequentially(member.did.slice(-10))
    await expect(memberRow).toBeVisible()
    await expect(outsiderRow).toBeHidden()
    await expect(page.getByTestId('member-count')).toHaveText('1 of 3 members')
    // …and by handle, once it is known.
    await search.fill(memberHandle.split('.')[0]!)
    await expect(memberRow).toBeVisible()
    await expect(outsiderRow).toBeHidden()
    await search.fill('did:plc:nobody-like-this')
    await expect(page.getByTestId('members-no-match')).toBeVisible()
    await search.fill('')
    await expect(outsiderRow).toBeVisible()

    // Give the member the moderator role (only assignable roles are offered)…
    const choose = page.getByLabel(`Role to give ${member.did}`)
    await expect(choose.locator('option:not([disabled])')).toHaveText(['owner', 'admin', 'moderator'])
    await choose.selectOption('moderator')
    await page.getByRole('button', { name: `Give ${member.did}` }).click()
    const moderatorChip = page.getByTestId(`roles-${member.did}`).locator('[data-role="moderator"]')
    await expect(moderatorChip).toBeVisible()
    // (While the host has not confirmed, the row says "Sending…"; the host is often faster
    // than the window's next read, so that moment is not asserted here.)
    // Confirmed by the host, the row offers to take the role away again.
    const takeModerator = page.getByRole('button', { name: `Take the moderator role from ${member.did}` })
    await expect(takeModerator).toBeVisible({ timeout: 15_000 })
    await page.screenshot({ path: testInfo.outputPath('members.png'), fullPage: true })

    // …then take it away again, from the keyboard.
    await takeModerator.focus()
    await page.keyboard.press('Enter')
    await expect(moderatorChip).toBeHidden()
    await expect(page.getByLabel(`Role to give ${member.did}`)).toBeVisible({ timeout: 15_000 })
    await expect(page.getByTestId(`roles-${member.did}`)).toContainText('member')

    // Remove the outsider, with a confirmation and a note.
    // The dialog names them by their profile's name, never by DID.
    const { displayName: outsiderName, handle: outsiderHandle } = app.stack.accounts.find((a) => a.name === 'outsider')!
    await expect(outsiderRow).toContainText(outsiderName, { timeout: 15_000 })
    await page.getByRole('button', { name: `Remove ${outsider.did}` }).click()
    const dialog = page.getByRole('dialog', { name: `Remove ${outsiderName} (@${outsiderHandle}) from the group?` })
    await expect(dialog).toBeVisible()
    await dialog.getByLabel('Note (optional)').fill('Posted spam twice')
    await dialog.getByRole('button', { name: 'Remove from group' }).click()
    await expect(dialog).toBeHidden()
    await expect(outsiderRow).toBeHidden({ timeout: 15_000 })
    await expect(page.getByTestId('member-count')).toHaveText('2 members')
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date')

    // The host agrees: the outsider is no longer a member.
    expect((await outsider.call('example.groups.leaveGroup', { group: groupDid })).body.error).toBe('NotAMember')
  })

  test('an admin is offered only the roles an admin may give: never admin or owner', async ({ page, app }) => {
    const admin = app.stack.accounts.find((a) => a.name === 'admin')!
    // The group's owner sets it up elsewhere: an open group where this admin is an admin.
    const ownerPeer = await asPeer(app.stack, 'owner')
    const created = await ownerPeer.call('example.groups.createGroup', { handle: `adminroles${Date.now().toString(36)}.groups.test`, joinPolicy: 'open' })
    const groupDid = created.body.did as string
    const adminPeer = await asPeer(app.stack, 'admin')
    const member = await asPeer(app.stack, 'member')
    for (const p of [adminPeer, member]) expect((await p.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    expect((await ownerPeer.call('example.groups.grantRole', { group: groupDid, did: admin.did, role: 'admin' })).status).toBe(200)

    await openSignedIn(page, app, 'admin')
    await page.getByLabel('Group handle or DID').fill(groupDid)
    await page.getByRole('button', { name: 'Add group' }).click()
    await expect(page.getByText(/You are admin/)).toBeVisible()
    await openSection(page, 'Members')

    // For a member, the choice holds moderator only (they already hold member): no admin, no owner.
    const choose = page.getByLabel(`Role to give ${member.did}`)
    await expect(choose).toBeVisible()
    await expect(choose.locator('option:not([disabled])')).toHaveText(['moderator'])
    await expect(choose.locator('option', { hasText: 'admin' })).toHaveCount(0)
    await expect(choose.locator('option', { hasText: 'owner' })).toHaveCount(0)
    // For the admin's own row there is nothing to give, and admin cannot be taken away.
    await expect(page.getByLabel(`Role to give ${admin.did}`).locator('option:not([disabled])')).toHaveText(['moderator'])
    await expect(page.getByRole('button', { name: `Take the admin role from ${admin.did}` })).toHaveCount(0)
    // The owner can neither lose their role nor be removed by an admin.
    await expect(page.getByTestId(`member-${ownerPeer.did}`)).toBeVisible()
    await expect(page.getByRole('button', { name: `Take the owner role from ${ownerPeer.did}` })).toHaveCount(0)
    await expect(page.getByRole('button', { name: `Remove ${ownerPeer.did}` })).toHaveCount(0)
    await expect(page.getByLabel(`Role to give ${ownerPeer.did}`).locator('option:not([disabled])')).toHaveText(['moderator', 'member'])
    // The member can be removed by an admin.
    await expect(page.getByRole('button', { name: `Remove ${member.did}` })).toBeVisible()
  })

  test('a list of thousands stays quick: only the rows in view cross and are drawn, and search and scrolling still find everyone', async ({ page, app, signedIn: owner }, testInfo) => {
    const { groupDid } = await startGroup(page, { prefix: 'crowd', name: 'Marathon', policy: 'open', section: 'Members' })
    await expect(page.getByTestId('member-count')).toHaveText('1 member')
    // 5,000 more members in the app's cache, as a sync from a very large group leaves
    // them (every other handle missing, as for people with no handle).
    await seedCachedMembers(app.dataDir, owner.did, groupDid, 5000, { handle: (i) => (i % 2 ? null : `person${i}.test`) })
    const pages = await watchListPages(app, 'groups.members')
    await openSection(page, 'Join requests')
    await openSection(page, 'Members')
    await expect(page.getByTestId('member-count')).toHaveText('5,001 members')

    const rows = page.getByTestId('members-list').locator('li')
    expect(await rows.count()).toBeLessThan(60)
    // Only the first pages crossed from the core (the one in view and the next), not the 5,001.
    await pages.expectOnlyRowsInView({ mostPages: 4 })
    // Owner first, then by when they joined; each row says where it is in the whole list.
    await expect(rows.first()).toHaveAttribute('data-testid', `member-${owner.did}`)
    await expect(rows.first()).toHaveAttribute('aria-setsize', '5001')

    // Scrolling to the end draws the last rows (and still only a window of them).
    const viewport = page.getByTestId('members-viewport')
    await viewport.evaluate((el) => (el.scrollTop = el.scrollHeight))
    await expect(page.getByTestId('member-did:plc:many004999xxxxxxxxxxxxxx')).toBeVisible()
    // Rows that came into view mid-scroll put off their role menu until the list stands still.
    await expect(page.getByLabel('Role to give did:plc:many004999xxxxxxxxxxxxxx')).toBeVisible()
    await expect(page.getByTestId('members-list').locator('.grant-placeholder')).toHaveCount(0)
    await expect(rows.last()).toHaveAttribute('aria-posinset', '5001')
    expect(await rows.count()).toBeLessThan(60)
    expect((await pages.asked()).some((p) => p.offset >= 4900)).toBe(true)
    // The page itself stays one screen tall: the list scrolls inside its own box.
    expect(await page.locator('html').evaluate((el) => el.scrollHeight)).toBeLessThan(2_000)
    await page.screenshot({ path: testInfo.outputPath('members-thousands.png'), fullPage: true })

    // Search by handle (with or without the @) reaches rows far down the list, at once.
    const search = page.getByLabel('Search members')
    const started = Date.now()
    await search.pressSequentially('@person4242.')
    await expect(page.getByTestId('member-count')).toHaveText('1 of 5,001 members')
    expect(Date.now() - started).toBeLessThan(5_000)
    await expect(page.getByTestId('member-did:plc:many004242xxxxxxxxxxxxxx')).toContainText('@person4242.test')
    // And by part of a DID, for people with no handle.
    await search.fill('many00424')
    await expect(page.getByTestId('member-count')).toHaveText('10 of 5,001 members')
    await search.fill('')
    await expect(page.getByTestId('member-count')).toHaveText('5,001 members')
    await expect(rows.first()).toHaveAttribute('data-testid', `member-${owner.did}`)
  })

  test('the only owner giving up the owner role is told plainly why it was not applied', async ({ page, signedIn: owner }, testInfo) => {
    await startGroup(page, { prefix: 'lastowner', name: 'Choir', policy: 'approval', section: 'Members' })

    // Owner is a role that asks first; the person is named as themself.
    await page.getByRole('button', { name: `Take the owner role from ${owner.did}` }).click()
    const asked = page.getByRole('dialog', { name: 'Take the owner role from yourself?' })
    await asked.getByRole('button', { name: 'Take the owner role' }).click()
    await expect(asked).toBeHidden()
    const row = page.getByTestId(`member-${owner.did}`)
    const notice = row.getByTestId('problem-notice')
    const plain = 'Someone else must be able to run the group first: you are the only one who can configure it.'
    await expect(notice).toContainText(plain, { timeout: 15_000 })
    // The role is still there, and the problem count says one change was not applied.
    await expect(page.getByTestId(`roles-${owner.did}`)).toContainText('owner')
    await expect(page.getByTestId('connection-state')).toContainText('1 not applied')
    await page.screenshot({ path: testInfo.outputPath('members-last-configurer.png'), fullPage: true })

    // The pending changes page says the same.
    await page.getByTestId('connection-state').click()
    await expect(page.getByTestId('outbox-list')).toContainText(plain)
    await page.goBack()
    await row.getByRole('button', { name: /Dismiss the notice/ }).click()
    await expect(notice).toBeHidden()
    await expect(row).toContainText('Joined')
  })

  test('giving or taking admin asks first, naming the person: cancel changes nothing, confirming gives it', async ({ page, app, signedIn: _owner }, testInfo) => {
    const { groupDid } = await startGroup(page, { prefix: 'askadmin', name: 'Rowing club', policy: 'open', section: 'Members' })
    const member = await asPeer(app.stack, 'member')
    expect((await member.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    await syncNow(page)
    const { handle: memberHandle, displayName: memberName } = app.stack.accounts.find((a) => a.name === 'member')!
    const roles = page.getByTestId(`roles-${member.did}`)
    await expect(page.getByTestId(`member-${member.did}`)).toContainText(`@${memberHandle}`, { timeout: 15_000 })
    await expect(page.getByTestId(`member-${member.did}`)).toContainText(memberName, { timeout: 15_000 })
    const acted = async () => ((await app.callInputs('groups.act')) as { action: { kind: string } }[]).filter((c) => c.action.kind === 'member.grantRole')

    // Choosing admin and pressing Give asks, by name and handle, before anything is sent.
    await page.getByLabel(`Role to give ${member.did}`).selectOption('admin')
    const give = page.getByRole('button', { name: `Give ${member.did}` })
    await give.click()
    const dialog = page.getByRole('dialog', { name: `Make ${memberName} (@${memberHandle}) an admin?` })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('such as admitting and removing people')
    await page.screenshot({ path: testInfo.outputPath('grant-admin-asks.png'), fullPage: true })
    // Cancel: nothing sent, the member unchanged, focus back on Give with admin still chosen.
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(give).toBeFocused()
    await expect(roles.locator('[data-role="admin"]')).toHaveCount(0)
    await expect(roles.locator('[data-role]')).toHaveCount(1)
    expect(await acted()).toEqual([])

    // Confirmed: the member is an admin.
    await give.click()
    await dialog.getByRole('button', { name: 'Make admin' }).click()
    await expect(roles.locator('[data-role="admin"]')).toBeVisible()
    expect(await acted()).toHaveLength(1)
    // Taking it away asks too; cancelling keeps it.
    const take = page.getByRole('button', { name: `Take the admin role from ${member.did}` })
    await take.click({ timeout: 15_000 })
    const asked = page.getByRole('dialog', { name: `Take the admin role from ${memberName} (@${memberHandle})?` })
    await asked.getByRole('button', { name: 'Cancel' }).click()
    await expect(asked).toBeHidden()
    await expect(roles.locator('[data-role="admin"]')).toBeVisible()
    // A moderator role, which cannot change anyone else's, is given at once as before.
    await page.getByLabel(`Role to give ${member.did}`).selectOption('moderator')
    await page.getByRole('button', { name: `Give ${member.did}` }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(roles.locator('[data-role="moderator"]')).toBeVisible()
  })
})
