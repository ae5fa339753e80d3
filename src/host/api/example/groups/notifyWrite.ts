import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, viewerOf } from '../../../groups/access.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { findSpace } from '../../../spaces/space.js'
import { readFromMemberPds } from '../../../spaces/member-pds.js'
import { findMemberRecord, verifyMemberRecord } from '../../../spaces/member-records.js'
import { notAMemberWriter, settleAnnouncedWrite } from '../../../spaces/announced-write.js'
import { whyNotKept } from '../../../spaces/member-record-bounds.js'
import type { PreparedRecord, RecordKey } from '../../../spaces/records.js'
import { formatSpaceAddress, parseSpaceAddress } from '../../../../shared/space-address.js'
import { json } from '../../answers.js'

/**
 * A member's own PDS announces a record it stored (or deleted) in one of the group's
 * spaces. The announcement is only a hint (decisions 6.1): the host reads the record
 * back from the member's own PDS, checks its CID against its content, and makes its copy
 * what the PDS holds: kept to serve (`listRecords`/`getRecord` with `repo` = the
 * member) if it is there, dropped if it is gone. Whatever the announcement says, only
 * what the PDS shows counts: an acceptance (`example.groups.acceptance`, rkey `self`)
 * marks the member accepted while it exists. `accepted` answers whether the announced
 * write holds: a put whose record is there, a delete whose record is gone.
 *
 * The token is minted by that PDS for the writer, so its issuer must be the `repo`.
 * Non-members are refused with `Forbidden` before the host reads anything for them
 * (spec section 3: the PDS stores it anyway, and a stored write is no proof of
 * membership). Announcing the same write again changes nothing.
 *
 * What the host keeps of a member is bounded (spaces/member-record-bounds.ts): only in a
 * space the member's roles may read, never in `meta` (`Forbidden`), and at most so many
 * records and bytes per member and space (`InvalidRequest` past them). Where it keeps
 * nothing of theirs, a put is refused before anything is read; a delete is still
 * followed, so a copy kept while they could read the space goes once their PDS drops it.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.notifyWrite({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { repo, collection, rkey, action } = input.body
      const writer = auth.credentials.did
      if (writer !== repo) throw refuse('Forbidden', 'Only the author’s own PDS may announce a write to their repo')
      const address = parseSpaceAddress(input.body.space)
      if (!address) throw refuse('InvalidRequest', 'space must be a space address: at://<group_did>/space/<space_type>/<skey>')
      const group = await loadGroup(ctx, address.authority)
      const writerNow = await viewerOf(ctx.db, group.did, writer)
      if (!writerNow.isMember) throw notAMemberWriter()
      const space = formatSpaceAddress(address)
      const found = await findSpace(ctx.db, space)
      if (!found) throw refuse('SpaceNotFound', `The group has no space ${space}`)
      const key: RecordKey = { space, repo, collection, rkey }
      const notKept = whyNotKept(found, writerNow)
      if (notKept && (action !== 'delete' || !(await findMemberRecord(ctx.db, key)))) throw refuse('Forbidden', notKept)

      // Read and check outside the transaction: it waits on the member's PDS.
      const fetched = await readFromMemberPds(ctx, key)
      const record: PreparedRecord | undefined = fetched.found ? await verifyMemberRecord(key, fetched) : undefined

      const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
        await settleAnnouncedWrite(tx, group.did, writer, key, record)
        return lastChangeIn(tx)
      })
      return json({ accepted: action === 'put' ? fetched.found : !fetched.found, ...seqField(seq) })
    },
  })
}
export default register
