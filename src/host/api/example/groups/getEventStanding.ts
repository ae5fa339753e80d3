import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { readableSpace } from '../../../spaces/readers.js'
import { eventPlaces } from '../../../spaces/standing.js'
import { requireEvent } from '../../../spaces/event-organizers.js'
import { json } from '../../answers.js'

/** An event's places (spaces/standing.ts) and the caller's own, for readers of the space: cheap to ask per event. A taken-down event's places are gone with it. */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.getEventStanding({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { space, reader } = await readableSpace(ctx, params.space, auth.credentials.did)
      await requireEvent(ctx.db, reader.groupDid, space.uri, params.event, reader)
      const { places, ...counts } = await eventPlaces(ctx.db, { space: space.uri, rkey: params.event })
      const mine = places.get(auth.credentials.did)
      return json({ ...counts, ...(mine ? { mine } : {}) })
    },
  })
}
export default register
