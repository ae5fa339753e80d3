import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { eventGroup, organizerSpace, requireEvent } from '../../../spaces/event-organizers.js'
import { setCapacity } from '../../../spaces/standing.js'
import { json } from '../../answers.js'

/**
 * Sets or clears an event's capacity (spaces/standing.ts): for members whose roles may
 * write events in the space, for an event the group keeps there. A rise promotes whoever
 * waits; a fall moves nobody going.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.setEventCapacity({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { event, capacity } = input.body
      const { group, spaceUri } = await eventGroup(ctx, input.body.space)
      const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
        const space = await organizerSpace(tx, group.did, spaceUri, auth.credentials.did)
        await requireEvent(tx, group.did, space.uri, event)
        await setCapacity(tx, group.did, { space: space.uri, rkey: event }, capacity)
        return lastChangeIn(tx)
      })
      return json(seqField(seq))
    },
  })
}
export default register
