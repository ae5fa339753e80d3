import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { askToJoin } from '../../../membership/join.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { withCapHeaders } from '../../../limits/cap-headers.js'
import { json } from '../../answers.js'

/**
 * Asks to join (membership/join.ts has the rules): an outstanding invite admits under
 * any policy; otherwise `open` admits, `approval` leaves a pending request, `invite`
 * refuses. A banned person is refused (`Forbidden`). One person may make only so many
 * requests to a group a day (membership/new-join-request.ts): past that, 429
 * `RateLimitExceeded`, saying when they may ask again (in words and in `Retry-After`).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.requestJoin({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input, res }) => {
      const group = await loadGroup(ctx, input.body.group)
      const { status, seq } = await withCapHeaders(res, () =>
        groupTransaction(ctx.db, group.did, async (tx) => {
          const status = await askToJoin(tx, group, auth.credentials.did, input.body.message ?? null)
          return { status, seq: lastChangeIn(tx) }
        }),
      )
      return json({ status, ...seqField(seq) })
    },
  })
}
export default register
