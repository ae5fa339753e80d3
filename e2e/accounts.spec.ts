import { test, expect, signInThroughPds, startSignIn } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { startGroup, syncNow } from './support/start-group.js'

test.describe('accounts', () => {
  // Signing in is the subject here: on the PDS's own pages, as a person does.
  test.use({ signInOnPages: true })

  test('signs in through the real PDS pages, keeps the account, and signs out', async ({ page, signedIn: owner }, testInfo) => {
    // Signed in, the app moves on to the groups.
    await expect(page.getByRole('heading', { name: 'Your groups' })).toBeVisible()
    await page.getByRole('link', { name: 'Accounts' }).click()
    // Signed in, the page is the accounts', not a sign-in's.
    await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible()
    const list = page.getByTestId('account-list')
    await expect(list).toContainText(`@${owner.handle}`)
    await page.screenshot({ path: testInfo.outputPath('signed-in.png'), fullPage: true })

    // The session lives in the keychain: a reload shows the account again.
    await page.reload()
    await expect(list).toContainText(`@${owner.handle}`)

    await page.getByRole('button', { name: `Sign out @${owner.handle}` }).click()
    await expect(page.getByTestId('accounts-empty')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Sign in to Convene', level: 1 })).toBeVisible()
  })

  test('a refused consent leaves no account and says so', async ({ page, app }) => {
    const member = app.stack.accounts.find((a) => a.name === 'member')!
    await app.open(page)
    const pds = await startSignIn(page, member.handle)
    await pds.locator('input[name=password]').fill(member.password)
    await pds.getByRole('button', { name: 'Sign in' }).click()
    await pds.getByRole('button', { name: 'Deny access' }).click()
    await expect(page.getByTestId('sign-in-error')).toContainText('cancelled')
    await expect(page.getByTestId('accounts-empty')).toBeVisible()
  })

  test('an unknown handle gets a clear error', async ({ page, app }) => {
    await app.open(page)
    await page.getByLabel('Your handle').fill('nobody-here.test')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByTestId('sign-in-error')).toContainText('Could not find the account "nobody-here.test"')
  })

  test('two accounts at once: the switcher lists each group once, through whom, with its counts, and moves across them', async ({ page, app, signedIn: owner }, testInfo) => {
    const admin = app.stack.accounts.find((a) => a.name === 'admin')!
    const ownerGroup = await startGroup(page, { prefix: 'two-o', name: 'Owner club', policy: 'approval', section: 'Join requests' })

    // A second account, signed in beside the first; it starts a group of its own.
    await page.getByRole('link', { name: 'Accounts' }).click()
    await signInThroughPds(page, admin.handle, admin.password)
    // Signed in, the app moves on to the groups, where either account can start one.
    await expect(page.getByRole('heading', { name: 'Your groups', level: 1 })).toBeVisible()
    await page.getByLabel('Account').selectOption({ label: `@${admin.handle}` })
    const adminGroup = await startGroup(page, { prefix: 'two-a', name: 'Admin club', policy: 'approval', section: 'Join requests' })
    expect(page.url()).toContain(`/g/${admin.did}/`)

    // Someone asks to join each; someone is reported in the second.
    const outsider = await asPeer(app.stack, 'outsider')
    await outsider.call('example.groups.requestJoin', { group: ownerGroup.groupDid })
    const member = await asPeer(app.stack, 'member')
    await member.call('example.groups.requestJoin', { group: adminGroup.groupDid })
    const reporter = await asPeer(app.stack, 'admin')
    const report = await reporter.call('example.groups.createReport', { group: adminGroup.groupDid, subject: { $type: 'example.groups.defs#subjectAccount', did: outsider.did }, reasonType: 'spam' })
    expect(report.status).toBe(200)
    await syncNow(page)

    // Each group once, with the account that reaches it and the counts in words for
    // assistive tech (Chromium puts a space before the hidden punctuation: the name is
    // built from separate boxes).
    const switcher = page.getByRole('navigation', { name: 'Your groups' })
    const via = (handle: string) => `via @${handle.replace(/\./g, '\\.')}`
    await expect(switcher.getByRole('link', { name: new RegExp(`^Owner club ?, ${via(owner.handle)} ?: 1 waiting to join, 0 open reports$`) })).toBeVisible()
    await expect(switcher.getByRole('link', { name: new RegExp(`^Admin club ?, ${via(admin.handle)} ?: 1 waiting to join, 1 open report$`) })).toBeVisible()
    await expect(switcher.getByRole('link', { name: /^Owner club/ })).toHaveCount(1)
    await page.screenshot({ path: testInfo.outputPath('two-accounts.png'), fullPage: true })

    // Opening one shows that account's view of it; ] steps to the next group, across accounts.
    await switcher.getByRole('link', { name: /^Owner club/ }).click()
    await expect(page.getByRole('heading', { name: 'Owner club' })).toBeVisible()
    await expect(page.getByTestId(`request-${outsider.did}`)).toBeVisible()
    // (The groups each account holds, found after sign-in, sit in between: ] leaves this
    // group for the next in the switcher, keeping the section; the admin's is one click away.)
    const ownerUrl = page.url()
    await page.locator('body').press(']')
    await expect(page).not.toHaveURL(ownerUrl)
    await expect(page).toHaveURL(/\/requests$/)
    await switcher.getByRole('link', { name: /^Admin club/ }).click()
    await expect(page.getByRole('heading', { name: 'Admin club' })).toBeVisible()
    expect(page.url()).toContain(`/g/${admin.did}/`)
    await expect(page.getByTestId(`request-${member.did}`)).toBeVisible()
    await expect(page.getByTestId(`request-${outsider.did}`)).toHaveCount(0)
    // Its section tabs say what their numbers count.
    const sections = page.getByRole('navigation', { name: 'Group sections' })
    await expect(sections.getByRole('link', { name: /^Join requests ?, 1 waiting$/ })).toBeVisible()
    await expect(sections.getByRole('link', { name: /^Moderation ?, 1 open$/ })).toBeVisible()
  })
})
