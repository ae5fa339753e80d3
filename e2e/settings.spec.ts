import { test, expect, saveDownload } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup, syncNow } from './support/start-group.js'
import { axeViolations } from './support/axe.js'

/** A one-pixel PNG: the group's picture. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

test.describe('the group’s settings, roles and who did what', () => {
  test('an owner renames the group, defines a role that may admit and gives it out, and reads who did it, exported as CSV', async ({ page, app, signedIn: owner }) => {
    const { groupDid } = await startGroup(page, { prefix: 'settings', name: 'Garden club', policy: 'approval', section: 'Settings' })

    // The group's name and how people join.
    await page.getByLabel('Name', { exact: true }).fill('Garden club (north)')
    await page.getByLabel('How people join').selectOption('invite')
    await page.getByTestId('group-profile').getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'The group’s settings are saved.' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Garden club (north)', level: 1 })).toBeVisible({ timeout: 20_000 })
    const outsider = await asPeer(app.stack, 'outsider')
    expect((await outsider.call('example.groups.requestJoin', { group: groupDid })).body.error).toBe('InviteRequired')

    // A picture for the group, shown beside its name in the header and the sidebar (initials until then).
    const header = page.locator('.group-header')
    await expect(header.getByTestId('group-avatar')).toHaveCount(0)
    const tooBig = { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(70 * 1024)]) }
    await page.getByLabel('Choose a picture…').setInputFiles(tooBig)
    await expect(page.getByRole('alert').filter({ hasText: 'choose one of at most 64 KB' })).toBeVisible()
    await page.getByLabel('Choose a picture…').setInputFiles({ name: 'garden.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') })
    await page.getByTestId('group-profile').getByRole('button', { name: 'Save' }).click()
    await expect(header.getByTestId('group-avatar')).toHaveAttribute('src', `data:image/png;base64,${PNG}`, { timeout: 20_000 })
    await expect(page.locator('#group-sidebar').getByTestId('group-avatar')).toHaveAttribute('src', `data:image/png;base64,${PNG}`)
    expect(await axeViolations(page)).toEqual([])
    expect(((await outsider.query('example.groups.getGroup', { group: groupDid })).body as { avatar?: string }).avatar).toBe(`data:image/png;base64,${PNG}`)

    // A role of the group's own, chosen in words, keyboard only.
    await page.getByRole('button', { name: 'New role…' }).focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByTestId('role-dialog')
    await dialog.getByLabel('Name').fill('Greeter')
    await dialog.getByLabel('Admit or deny people asking to join').check()
    await dialog.getByRole('button', { name: 'Create role' }).click()
    // A name the host would refuse is named in the dialog, before anything is sent.
    await expect(dialog.locator('#role-name-error')).toContainText('A role name is a lowercase letter')
    await dialog.getByLabel('Name').fill('greeter')
    await dialog.getByRole('button', { name: 'Create role' }).click()
    await expect(page.getByTestId('role-greeter')).toContainText('Admit or deny people asking to join', { timeout: 20_000 })

    // It can be given to a member like any other role (here by the owner on another device).
    const ownerElsewhere = await asPeer(app.stack, 'owner')
    const member = await asPeer(app.stack, 'member')
    expect((await ownerElsewhere.call('example.groups.createInvite', { group: groupDid, invitee: member.did })).status).toBe(200)
    expect((await member.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    expect((await ownerElsewhere.call('example.groups.grantRole', { group: groupDid, did: member.did, role: 'greeter' })).status).toBe(200)
    await syncNow(page)

    // A role the group made can be renamed; whoever holds it keeps it under the new name.
    await page.getByRole('button', { name: 'Rename the greeter role' }).click()
    await expect(dialog.getByLabel('Name')).toBeFocused()
    await dialog.getByLabel('Name').fill('welcomer')
    await dialog.getByRole('button', { name: 'Rename' }).click()
    await expect(page.getByTestId('role-welcomer')).toContainText('Admit or deny people asking to join', { timeout: 20_000 })
    await expect(page.getByTestId('role-greeter')).toHaveCount(0)
    const held = await member.query('example.groups.getGroup', { group: groupDid })
    expect(held.body.viewer).toMatchObject({ roles: expect.arrayContaining(['welcomer']), actions: ['admit'] })
    // The built-in roles keep their names: nothing offers to rename them.
    await expect(page.getByRole('button', { name: 'Rename the moderator role' })).toHaveCount(0)

    // Who did what: the owner's changes, by name, and the whole log as a spreadsheet.
    const log = page.getByTestId('audit-log')
    await expect(log.getByRole('listitem').first()).toContainText(`@${owner.handle}`, { timeout: 20_000 })
    await expect(log).toContainText('changed the group’s settings or roles')
    await log.getByLabel('Kind of change').selectOption('member.roleGranted')
    await expect(log.getByRole('listitem')).toHaveCount(1)
    await expect(log.getByRole('listitem').first()).toContainText('gave a role to')
    const { fileName, text } = await saveDownload(page, app, () => log.getByRole('button', { name: 'Export as CSV' }).click())
    expect(fileName).toMatch(/audit-log\.csv$/)
    expect(text.split('\r\n')[0]).toBe('time,who,who (DID),as the group,what,whom or what,whom (DID or address),kind')
    expect(text).toContain(`${owner.handle},${owner.did},,gave a role to`)
  })
})
