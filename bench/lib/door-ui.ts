import path from 'node:path'
import type { Page } from 'playwright-core'
import { TID } from '@atproto/common-web'
import { openCacheDb } from '../../src/main/core/cache/cache-db.js'
import { putItem } from '../../src/main/core/cache/items.js'

export const DOOR_ATTENDEES = 5_000

/**
 * Door mode (issue 27) over an event 5,000 people said they are going to, in a group of
 * the bench's 10,000 cached members: from a few letters typed and Enter to the count of
 * check-ins painted (the matching, the check-in queued in the core's outbox, and the
 * frame that shows it). The event is put in the cache as a sync would have left it (the
 * seeded members' DIDs answer going); the check-ins go to the outbox, and the host,
 * which knows no such event, is never waited on.
 */
export async function seedDoorEvent(dataDir: string, accountDid: string, groupDid: string, goingDids: string[]): Promise<string> {
  const rkey = TID.nextStr()
  const cache = await openCacheDb(path.join(dataDir, 'cache'), accountDid)
  try {
    const rsvps = goingDids.map((did, i) => ({ did, handle: `person${i}.test`, status: 'going' }))
    const event = { rkey, uri: `at://${groupDid}/space/community.lexicon.calendar/self/${groupDid}/community.lexicon.calendar.event/${rkey}`, name: 'Bench meetup', startsAt: new Date().toISOString(), endsAt: null, description: null, location: null, mode: null, status: null, locations: [], uris: [], createdAt: new Date().toISOString(), myRsvp: null, rsvps, cid: null, takenDown: false }
    await putItem(cache, groupDid, 'event', rkey, event, null)
  } finally {
    await cache.destroy()
  }
  return rkey
}

/** Typed letters and Enter in door mode → the new count painted (page-side, as text). */
const checkInScript = (text: string) => `new Promise((resolve) => {
  const input = document.querySelector('#door-field')
  const count = document.querySelector('[data-testid="door-count"]')
  const before = count.textContent
  const t0 = performance.now()
  input.value = ${JSON.stringify(text)}
  input.dispatchEvent(new Event('input'))
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
  const check = () => count.textContent !== before
    ? requestAnimationFrame(() => resolve(performance.now() - t0))
    : requestAnimationFrame(check)
  check()
})`

/**
 * The baseline, same page: the same 5,000 names searched with a plain loop over an array
 * (substring, no ranking) and the first match's line put into the page.
 */
const baselineScript = (count: number, text: string) => `new Promise((resolve) => {
  const people = []
  for (let j = 0; j < ${count}; j++) people.push({ name: 'person' + j + '.test' })
  const out = document.createElement('p')
  document.body.append(out)
  const t0 = performance.now()
  const found = people.filter((p) => p.name.includes(${JSON.stringify(text)}))
  out.textContent = found.length ? found[0].name + ' checked in' : 'nobody'
  requestAnimationFrame(() => { resolve(performance.now() - t0); out.remove() })
})`

/** Opens door mode for the event and checks `runs` people in, one by one; answers each run's time and the baseline's. */
export async function measureDoor(page: Page, base: string, rkey: string, runs: number): Promise<{ checkIns: number[]; baseline: number[] }> {
  await page.evaluate(`location.hash = ${JSON.stringify(`${base}/calendar/${rkey}/door`)}`)
  await page.waitForSelector('#door-field')
  // Until the door has read its 10,000 people (the count shows "said going").
  await page.waitForFunction(`document.querySelector('[data-testid="door-count"]')?.textContent.includes('said going')`)
  const checkIns: number[] = []
  const baseline: number[] = []
  for (let i = 0; i < runs; i++) {
    // A different person each time ("person1234", one of the going), typed whole.
    const who = `person${1000 + i * 37}`
    checkIns.push(await page.evaluate<number>(checkInScript(who)))
    baseline.push(await page.evaluate<number>(baselineScript(DOOR_ATTENDEES, who)))
    await page.waitForTimeout(100)
  }
  return { checkIns, baseline }
}
