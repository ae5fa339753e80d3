import { test, expect, signInThroughPds, startSignIn } from './support/fixtures.js'

test.describe('accounts', () => {
  test('signs in through the real PDS pages, keeps the account, and signs out', async ({ page, app }, testInfo) => {
    const owner = app.stack.accounts.find((a) => a.name === 'owner')!
    await app.open(page)
    await signInThroughPds(page, owner.handle, owner.password)
    // Signed in, the app moves on to the groups.
    await expect(page.getByRole('heading', { name: 'Your groups' })).toBeVisible()
    await page.getByRole('link', { name: 'Accounts' }).click()
    const list = page.getByTestId('account-list')
    await expect(list).toContainText(`@${owner.handle}`)
    await page.screenshot({ path: testInfo.outputPath('signed-in.png'), fullPage: true })

    // The session lives in the keychain: a reload shows the account again.
    await page.reload()
    await expect(list).toContainText(`@${owner.handle}`)

    await page.getByRole('button', { name: `Sign out @${owner.handle}` }).click()
    await expect(page.getByTestId('accounts-empty')).toBeVisible()
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
})
