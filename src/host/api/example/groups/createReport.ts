import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, viewerOf } from '../../../groups/access.js'
import { parseSubject } from '../../../moderation/subjects.js'
import { fileReport } from '../../../moderation/file-report.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { withCapHeaders } from '../../../limits/cap-headers.js'
import { json } from '../../answers.js'

/**
 * A member reports an account or a record to the group's moderators, with one of
 * atproto's reason types (other non-blank values are kept as given, as older clients
 * send `spam`) and free text (moderation/file-report.ts has the rules). Reports are kept
 * (the reporter too, shown to moderators only). What one person can add is bounded
 * (moderation/report-bounds.ts): five reports about a subject while it waits for the
 * moderators (more answer {} and add nothing), fifty subjects waiting at once (then 429,
 * naming no time: it lifts when the moderators deal with one).
 * A report sent again with the same `idempotencyKey` by the same reporter (a client
 * retrying after it lost the answer) is the report already made: nothing is kept twice.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.createReport({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input, res }) => {
      const { reasonType, reason, idempotencyKey } = input.body
      const { key, subject } = parseSubject(input.body.subject)
      if (!reasonType.trim()) throw refuse('InvalidRequest', 'Say what kind of problem this is (reasonType)')
      const group = await loadGroup(ctx, input.body.group)
      const seq = await withCapHeaders(res, () =>
        groupTransaction(ctx.db, group.did, async (tx) => {
          const viewer = await viewerOf(tx, group.did, auth.credentials.did)
          await fileReport(tx, group.did, viewer, { key, subject, reasonType, reason, idempotencyKey })
          return lastChangeIn(tx)
        }),
      )
      return json(seqField(seq))
    },
  })
}
export default register
