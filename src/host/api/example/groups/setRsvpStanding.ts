import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { eventGroup, organizerSpace } from '../../../spaces/event-organizers.js'
import { moveByHand } from '../../../spaces/standing.js'
import { json } from '../../answers.js'

/**
 * An organizer moves a member who is going between going and the waitlist by hand
 * (spaces/standing.ts); recorded in the change log, so the audit names who did it.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.setRsvpStanding({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { event, did, standing } = input.body
      if (standing !== 'going' && standing !== 'waitlisted') throw refuse('InvalidRequest', 'standing must be going or waitlisted')
      const { group, spaceUri } = await eventGroup(ctx, input.body.space)
      const result = await groupTransaction(ctx.db, group.did, async (tx) => {
        const space = await organizerSpace(tx, group.did, spaceUri, auth.credentials.did)
        const now = await moveByHand(tx, group.did, { space: space.uri, rkey: event }, did, standing as 'going' | 'waitlisted')
        return { standing: now, ...seqField(lastChangeIn(tx)) }
      })
      return json(result)
    },
  })
}
export default register
