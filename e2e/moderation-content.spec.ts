import { test, expect } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { openSection, startGroup, syncNow } from './support/start-group.js'
import { createDpopKey, fetchWithDpop } from '../src/node/dpop.js'
import { axeViolations } from './support/axe.js'

const SPAM = 'com.atproto.moderation.defs#reasonSpam'
const POST = 'app.bsky.feed.post'

test.describe('reported records as what they are', () => {
  test('a reported post shows as its words in the queue and the pane, its address one click away, and once deleted says so', async ({ page, app, signedIn: _owner }) => {
    test.setTimeout(120_000)
    const { groupDid } = await startGroup(page, { prefix: 'modpost', name: 'Watch traders', policy: 'open', section: 'Moderation' })

    // A space of posts (as another app would keep), and one post in it written as the group, by the owner on another device.
    const owner = await asPeer(app.stack, 'owner')
    const made = await owner.call('example.groups.createSpace', {
      group: groupDid, type: 'example.posts', skey: 'self', name: 'Posts', readableBy: ['owner', 'admin', 'moderator', 'member'], credentialScopes: [{ role: 'owner', scopes: ['*'] }],
    })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const space = made.body.uri as string
    const key = await createDpopKey()
    const state: { nonce?: string } = {}
    const granted = await fetchWithDpop(key, `${app.stack.host.url}/xrpc/example.groups.getGroupAuth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await owner.serviceAuth('example.groups.getGroupAuth')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ group: groupDid, space }),
    }, state)
    const grant = (await granted.json()) as { accessJwt: string; pds: string }
    const write = (method: string, body: Record<string, unknown>) =>
      fetchWithDpop(key, `${grant.pds}/xrpc/${method}`, { method: 'POST', headers: { authorization: `DPoP ${grant.accessJwt}`, 'content-type': 'application/json' }, body: JSON.stringify(body), accessToken: grant.accessJwt }, state)
    const posted = await write('com.atproto.space.createRecord', { space, repo: groupDid, collection: POST, record: { $type: POST, text: 'Cheap watches,\n  DM me for prices', createdAt: new Date().toISOString() } })
    expect(posted.status).toBe(200)
    const uri = ((await posted.json()) as { uri: string }).uri

    // A member reports it.
    const member = await asPeer(app.stack, 'member')
    expect((await member.call('example.groups.requestJoin', { group: groupDid })).body.status).toBe('admitted')
    expect((await member.call('example.groups.createReport', { group: groupDid, subject: { $type: 'example.groups.defs#subjectRecord', uri }, reasonType: SPAM })).status).toBe(200)

    // The queue names it by its words, not its address; the address is a labelled button away.
    await openSection(page, 'Moderation')
    await syncNow(page)
    const row = page.getByTestId(`subject-${uri}`)
    await expect(row.getByTestId('subject-record')).toHaveText('“Cheap watches, DM me for prices”', { timeout: 20_000 })
    await expect(row).toContainText('Post')
    await expect(row).not.toContainText('at://')
    await expect(row.getByRole('button', { name: 'Copy the address of the reported post' })).toHaveAttribute('title', uri)
    expect(await axeViolations(page)).toEqual([])

    // The pane shows the post as it was written, and its address with one click.
    await row.getByRole('button', { name: /^Review the report about/ }).click()
    const pane = page.getByTestId('subject-pane')
    await expect(pane.getByRole('heading', { name: 'Report about a post: “Cheap watches, DM me for prices”' })).toBeVisible({ timeout: 20_000 })
    await expect(pane.getByTestId('pane-post-text')).toHaveText('Cheap watches,\n  DM me for prices')
    await expect(pane.getByTestId('record-address')).toHaveCount(0)
    await pane.getByRole('button', { name: 'Show the address' }).click()
    await expect(pane.getByTestId('record-address')).toHaveText(uri)
    expect(await axeViolations(page)).toEqual([])
    await pane.getByRole('button', { name: 'Close' }).click()

    // Deleted since: the pane says so plainly.
    const removed = await write('com.atproto.space.deleteRecord', { space, repo: groupDid, collection: POST, rkey: uri.split('/').pop() })
    expect(removed.status).toBe(200)
    await row.getByRole('button', { name: /^Review the report about/ }).click()
    await expect(pane.getByTestId('pane-deleted')).toHaveText('Deleted record: the host no longer has it.', { timeout: 20_000 })
    await expect(pane.getByRole('heading', { name: 'Report about a deleted record' })).toBeVisible()
  })
})
