import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { decodeCursor, page } from '../../../pagination.js'
import { readableSpace } from '../../../spaces/readers.js'
import { recordUri } from '../../../spaces/records.js'
import { servedRecords } from '../../../spaces/record-visibility.js'
import { everyMembersRecords } from '../../../spaces/member-records.js'
import { json, cursorField } from '../../answers.js'
import { eventPlaces, type EventPlaces } from '../../../spaces/standing.js'
import { isRsvpCollection, rsvpEvent, saysGoing } from '../../../../shared/rsvp-standing.js'

/**
 * What every member wrote in a space, of one collection (optionally one rkey), in one
 * paged call: how an organizer sees who is coming (RSVPs in the calendar space, whose
 * rkey is the event's) without one `com.atproto.space.listRecords` per member. Same
 * readers and same records as that method with `repo` = a member: only members'
 * records the host read and checked from their own PDS, kept while they are members.
 * Ordered by member DID, then rkey; the cursor is both, so pages never skip or repeat.
 * Records a moderator took down are left out, but for readers holding `mod.read`, who
 * get them marked `takenDown`, as listRecords does (spaces/record-visibility.ts); the
 * cursor still follows the unfiltered order. An RSVP that says going carries its place
 * at the event (`standing`, and `waitlistPosition` while it waits).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listMemberRecords({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { collection, rkey, limit } = params
      const { space, reader } = await readableSpace(ctx, params.space, auth.credentials.did)
      const after = decodeCursor(params.cursor, ['string', 'string'])
      const rows = await everyMembersRecords(ctx.db, { space: space.uri, collection, rkey, after, limit: limit + 1 })
      const { items, cursor } = page(rows, limit, (r) => [r.repo, r.rkey])
      const records = items.map((r) => ({
        uri: recordUri({ space: space.uri, repo: r.repo, collection, rkey: r.rkey }),
        repo: r.repo,
        cid: r.cid,
        value: JSON.parse(r.value) as Record<string, unknown>,
      }))
      if (isRsvpCollection(collection)) {
        // Each going RSVP with the place the host gave it (spaces/standing.ts), one read per event on the page.
        const byEvent = new Map<string, EventPlaces>()
        for (const r of records) {
          if (!saysGoing(r.value)) continue
          const event = rsvpEvent(r.uri.split('/').pop()!, r.value)
          const places = byEvent.get(event) ?? (await eventPlaces(ctx.db, { space: space.uri, rkey: event }))
          byEvent.set(event, places)
          const place = places.places.get(r.repo)
          if (place) Object.assign(r, { standing: place.standing, ...(place.position ? { waitlistPosition: place.position } : {}) })
        }
      }
      return json({ records: await servedRecords(ctx.db, reader, records), ...cursorField(cursor) })
    },
  })
}
export default register
