import type { OAuthSession } from '@atproto/oauth-client'
import { errorFields, log } from '../log/log.js'
import { allPages } from '../xrpc/host-pages.js'
import { callQuery } from '../xrpc/validated-call.js'
import { ownPdsSend } from './member-writes.js'
import { calendarSpace, LEGACY_RSVP_COLLECTION, RSVP_COLLECTION } from './calendar-space.js'
import { mergeAnswers } from './rsvp-records.js'

/**
 * This account's RSVPs to a group's events, by event rkey, read from its own PDS (every
 * page, each answer checked against the lexicon like any other call): the published
 * collection and the one Convene wrote before, the published one winning for an event
 * answered in both. Null when they could not be read (the PDS has no spaces, or could
 * not be reached): the caller keeps the answers it last saw rather than showing them as
 * none. The reason goes to the log.
 */
export async function myRsvps(session: OAuthSession, groupDid: string): Promise<Map<string, string> | null> {
  const send = ownPdsSend(session, 'com.atproto.space.listRecords')
  const read = (collection: string) =>
    allPages(async (cursor) => {
      const page = await callQuery(send, { kind: 'pds', url: session.serverMetadata.issuer }, 'com.atproto.space.listRecords', {
        space: calendarSpace(groupDid),
        repo: session.did,
        collection,
        limit: 100,
        cursor,
      })
      return { items: page.records, cursor: page.cursor }
    })
  try {
    const [legacy, current] = await Promise.all([read(LEGACY_RSVP_COLLECTION), read(RSVP_COLLECTION)])
    const mine = new Map<string, string>()
    for (const { event, status } of mergeAnswers(legacy, current, () => session.did).values()) mine.set(event, status)
    return mine
  } catch (err) {
    log.warn('calendar', 'could not read this account’s RSVPs from its own server', { groupDid, ...errorFields(err) })
    return null
  }
}
