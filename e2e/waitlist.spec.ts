import { test, expect } from './support/fixtures.js'
import { asPeer } from './support/peer.js'
import { addEvent, startGroup, syncNow } from './support/start-group.js'
import { hangHost } from './support/stack-control.js'
import { MemberPds } from '../test/support/member-pds.js'
import { axeViolations } from './support/axe.js'

const RSVP = 'example.groups.rsvp'
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const EVENT = 'community.lexicon.calendar.event'

test.describe('a capacity given with a new event', () => {
  /** The core's time limit for the hung host below (the app's own is 15 s). */
  test.use({ hostTimeoutMs: 2_000 })

  test('an event made with a capacity and a picture while the host does not answer takes both once the host is back', async ({ page, app, signedIn: _owner }) => {
    test.setTimeout(90_000)
    const { groupDid } = await startGroup(page, { prefix: 'cap-new', name: 'Capped', policy: 'open', section: 'Calendar' })
    const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10)
    // The first event makes the calendar space; the capped one is made with the host away.
    await addEvent(page, { name: 'Warm-up', day, time: '10:00' })
    await expect(page.locator('article.cal-event', { hasText: 'Warm-up' }).getByTestId('rsvp-counts')).toBeVisible({ timeout: 15_000 })
    const bringBack = await hangHost()
    try {
      await addEvent(page, { name: 'Small room', day, time: '18:00', capacity: 2, picture: { png: PNG, alt: 'The small room' } })
      // On the calendar at once with its capacity and picture, waiting to be sent (one change waiting).
      const waiting = page.locator('article.cal-event', { hasText: 'Small room' })
      await expect(waiting.getByRole('status')).toHaveText('Sending…')
      await expect(waiting.getByTestId('places-count')).toHaveText('0 going · 0 waitlisted · capacity 2')
      await expect(waiting.getByRole('img', { name: 'The small room' })).toBeVisible()
      await expect(page.getByTestId('connection-state')).toHaveText('Host not answering · 1 waiting', { timeout: 12_000 })
    } finally {
      await bringBack()
    }
    await syncNow(page)
    await expect(page.getByTestId('connection-state')).toHaveText('Up to date', { timeout: 30_000 })
    const card = page.locator('article.cal-event', { hasText: 'Small room' })
    const rkey = (await card.getAttribute('data-testid'))!.replace(/^event-/, '')
    // The host holds it: anyone's app reading the event's standing sees two places.
    const owner = await asPeer(app.stack, 'owner')
    const standing = await owner.query('example.groups.getEventStanding', { space: `at://${groupDid}/space/community.lexicon.calendar/self`, event: rkey })
    expect(standing.body).toMatchObject({ capacity: 2, going: 0, waitlisted: 0 })
    await expect(card.getByTestId('places-count')).toHaveText('0 going · 0 waitlisted · capacity 2')
    // And its picture is the group's image record there, read back as the host serves it.
    const image = await owner.query('com.atproto.space.getRecord', { space: `at://${groupDid}/space/community.lexicon.calendar/self`, repo: groupDid, collection: 'example.groups.eventImage', rkey })
    expect(image.body).toMatchObject({ value: { alt: 'The small room', image: { mimeType: 'image/png', size: PNG.length } } })
    await expect(card.getByRole('img', { name: 'The small room' })).toHaveAttribute('src', `data:image/png;base64,${PNG.toString('base64')}`)
  })
})

test.describe('capacity and the waitlist', () => {
  test('someone who answers going to a full event sees their place on the waitlist, and that a place opened when it did', async ({ page, app, signedIn: _owner }) => {
    test.setTimeout(150_000)
    const { groupDid } = await startGroup(page, { prefix: 'wait', name: 'Waiters', policy: 'open', section: 'Calendar' })

    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
    await addEvent(page, { name: 'Meetup', day, time: '18:00' })
    const card = page.locator('article.cal-event', { hasText: 'Meetup' })
    await expect(card.getByTestId('rsvp-counts')).toBeVisible({ timeout: 15_000 })
    const rkey = (await card.getAttribute('data-testid'))!.replace(/^event-/, '')

    // The organizer gives it one place, from the keyboard.
    await card.getByRole('button', { name: 'Places at Meetup' }).focus()
    await page.keyboard.press('Enter')
    await card.getByRole('spinbutton', { name: 'Capacity' }).fill('1')
    await card.getByRole('spinbutton', { name: 'Capacity' }).press('Enter')
    const places = card.getByTestId('places-count')
    await expect(places).toHaveText('0 going · 0 waitlisted · capacity 1')

    // Someone else joins and takes the place first, from their own PDS.
    const pds = new MemberPds(() => app.stack)
    const space = `at://${groupDid}/space/community.lexicon.calendar/self`
    const answer = (status: string) =>
      pds.put('member', { space, collection: RSVP, rkey, record: { $type: RSVP, subject: `${space}/${groupDid}/${EVENT}/${rkey}`, status, createdAt: new Date().toISOString() } })
    const peer = await asPeer(app.stack, 'member')
    expect((await peer.call('example.groups.requestJoin', { group: groupDid })).status).toBe(200)
    expect((await answer('going')).status).toBe(200)

    // Then the person at this window answers going: the event is full, so they wait.
    await page.getByRole('button', { name: 'Going to Meetup', exact: true }).click()
    const mine = card.getByTestId('my-standing')
    await expect(async () => {
      await syncNow(page)
      await expect(mine).toHaveText('You’re 1st on the waitlist', { timeout: 3_000 })
    }).toPass({ timeout: 45_000 })
    await expect(places).toHaveText('1 going · 1 waitlisted · capacity 1')
    // One reading of the answers on the whole card: who is coming says the same, the one waiting listed as such.
    await expect(card.getByTestId('rsvp-counts')).toHaveText('1 going · 1 waitlisted · 0 interested · 0 not going')
    await card.getByTestId('rsvp-counts').click()
    await expect(card.getByTestId('rsvp-waitlisted')).toHaveText('Waitlistedyou (1st)')
    expect(await axeViolations(page)).toEqual([])
    // The door reads the answers the same way: the one waiting is not counted as going, and is listed as waiting.
    await card.getByRole('link', { name: 'Door mode for Meetup' }).click()
    await expect(page.getByTestId('door-count')).toHaveText('0 checked in · 1 said going · 1 waitlisted')
    const me = app.stack.accounts.find((a) => a.name === 'owner')!
    await page.getByRole('combobox', { name: 'Name or handle' }).pressSequentially(me.handle.slice(0, 5))
    await expect(page.getByRole('option').filter({ hasText: me.handle })).toContainText('Waitlisted (1st)')
    await page.goBack()
    // Back on the calendar, the card is drawn anew: its places panel opens again from the keyboard.
    await card.getByRole('button', { name: 'Places at Meetup' }).focus()
    await page.keyboard.press('Enter')

    // The other person drops out: the host promotes whoever waited first, and the window says so where the eye is.
    expect((await answer('notgoing')).status).toBe(200)
    await expect(async () => {
      await syncNow(page)
      await expect(mine).toHaveText('A place opened: you’re going', { timeout: 3_000 })
    }).toPass({ timeout: 45_000 })
    await expect(page.getByRole('status').filter({ hasText: 'A place opened: you’re going to “Meetup”' })).toBeVisible()
    await expect(places).toHaveText('1 going · 0 waitlisted · capacity 1')

    // They come back, and wait; the organizer gives them a place by hand, past the capacity.
    expect((await answer('going')).status).toBe(200)
    await syncNow(page)
    await expect(places).toHaveText('1 going · 1 waitlisted · capacity 1', { timeout: 20_000 })
    const handle = app.stack.accounts.find((a) => a.name === 'member')!.handle
    await card.getByRole('button', { name: `Give a place to @${handle} at Meetup` }).click()
    await expect(places).toHaveText('2 going · 0 waitlisted · capacity 1', { timeout: 20_000 })
    await syncNow(page)
    await expect(places).toHaveText('2 going · 0 waitlisted · capacity 1', { timeout: 20_000 })

    // With a place, the card gives a code to say at the door; the door, typing it, finds them first.
    await expect(card.getByTestId('my-door-code')).toHaveText(/^Your code at the door: [0-9A-Z]{3}-[0-9A-Z]{3}$/)
    const code = (await card.getByTestId('my-door-code').locator('strong').textContent())!
    await card.getByRole('link', { name: 'Door mode for Meetup' }).click()
    await page.getByRole('combobox', { name: 'Name or handle' }).pressSequentially(code.toLowerCase().replace('-', ' '))
    await expect(page.getByRole('option')).toHaveCount(1)
    await expect(page.getByRole('option')).toContainText(me.handle)
  })
})
