import { test, expect } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { addEvent, startGroup, syncNow } from './support/start-group.js'
import { MemberPds } from '../test/support/member-pds.js'
import { axeViolations } from './support/axe.js'

const RSVP = 'example.groups.rsvp'
const EVENT = 'community.lexicon.calendar.event'

test.describe('who is coming', () => {
  test('an organizer sees each event’s answers, counted and named, as members give them', async ({ page, app, signedIn: _owner }) => {
    test.setTimeout(120_000)
    const { groupDid } = await startGroup(page, { prefix: 'rsvp', name: 'Picnickers', policy: 'open', section: 'Calendar' })

    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
    await addEvent(page, { name: 'Picnic', day, time: '12:00' })
    const card = page.locator('article.cal-event', { hasText: 'Picnic' })
    const counts = card.getByTestId('rsvp-counts')
    await expect(counts).toHaveText('0 going · 0 interested · 0 not going', { timeout: 15_000 })
    const rkey = (await card.getAttribute('data-testid'))!.replace(/^event-/, '')

    // Three people join (the group is open) and answer from their own PDS.
    const pds = new MemberPds(() => app.stack)
    const answers = { member: 'going', admin: 'going', moderator: 'notgoing' } as const
    for (const [name, status] of Object.entries(answers) as [keyof typeof answers, string][]) {
      const peer = await asPeer(app.stack, name)
      expect((await peer.call('example.groups.requestJoin', { group: groupDid })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
      const space = `at://${groupDid}/space/community.lexicon.calendar/self`
      const put = await pds.put(name, { space, collection: RSVP, rkey, record: { $type: RSVP, subject: `${space}/${groupDid}/${EVENT}/${rkey}`, status, createdAt: new Date().toISOString() } })
      expect(put.status, JSON.stringify(put.body)).toBe(200)
    }
    // The organizer answers too, in the app.
    await page.getByRole('button', { name: 'Interested in Picnic' }).click()
    await syncNow(page)
    await expect(counts).toHaveText('2 going · 1 interested · 1 not going', { timeout: 15_000 })

    // Names, from the keyboard: the summary opens the list.
    await card.locator('summary').focus()
    await page.keyboard.press('Enter')
    const handle = (name: string) => app.stack.accounts.find((a) => a.name === name)!.handle
    await expect(card.getByTestId('rsvp-interested')).toContainText('you')
    await expect(card.getByTestId('rsvp-going')).toContainText(`@${handle('member')}`, { timeout: 20_000 })
    await expect(card.getByTestId('rsvp-going')).toContainText(`@${handle('admin')}`)
    await expect(card.getByTestId('rsvp-notgoing')).toContainText(`@${handle('moderator')}`)
    expect(await axeViolations(page)).toEqual([])

    // A changed answer moves the counts.
    const space = `at://${groupDid}/space/community.lexicon.calendar/self`
    await pds.put('admin', { space, collection: RSVP, rkey, record: { $type: RSVP, subject: `${space}/${groupDid}/${EVENT}/${rkey}`, status: 'notgoing', createdAt: new Date().toISOString() } })
    await syncNow(page)
    await expect(counts).toHaveText('1 going · 1 interested · 2 not going', { timeout: 15_000 })
  })
})
