import type { OAuthSession } from '@atproto/oauth-client'
import { parseRecordAddress } from '../../../shared/space-address.js'
import { errorFields, log } from '../log/log.js'
import { allPages } from '../groups/host-pages.js'
import { callQuery } from '../xrpc/validated-call.js'
import { ownPdsSend } from './member-writes.js'
import { calendarSpace, RSVP_COLLECTION } from './calendar-space.js'

/**
 * This account's RSVPs to a group's events, by event rkey, read from its own PDS (every
 * page, each answer checked against the lexicon like any other call). Null when they
 * could not be read (the PDS has no spaces, or could not be reached): the caller keeps
 * the answers it last saw rather than showing them as none. The reason goes to the log.
 */
export async function myRsvps(session: OAuthSession, groupDid: string): Promise<Map<string, string> | null> {
  const send = ownPdsSend(session, 'com.atproto.space.listRecords')
  try {
    const records = await allPages(async (cursor) => {
      const page = await callQuery(send, { kind: 'pds', url: session.serverMetadata.issuer }, 'com.atproto.space.listRecords', {
        space: calendarSpace(groupDid),
        repo: session.did,
        collection: RSVP_COLLECTION,
        limit: 100,
        cursor,
      })
      return { items: page.records, cursor: page.cursor }
    })
    const mine = new Map<string, string>()
    for (const r of records) {
      const rkey = parseRecordAddress(r.uri)?.rkey
      const status = (r.value as { status?: unknown }).status
      if (rkey) mine.set(rkey, typeof status === 'string' ? status : 'going')
    }
    return mine
  } catch (err) {
    log.warn('calendar', 'could not read this account’s RSVPs from its own server', { groupDid, ...errorFields(err) })
    return null
  }
}
