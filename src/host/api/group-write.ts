import type { Transaction } from 'kysely'
import type { GroupTable, HostDatabaseSchema } from '../db/schema.js'
import type { HostDb } from '../db/index.js'
import { groupTransaction } from '../db/group-lock.js'
import { loadGroup, type GroupLookup } from '../groups/access.js'
import { lastChangeIn, seqField } from '../changes.js'
import { json } from './answers.js'

/**
 * A write procedure's whole round: the group the call names, the write in that group's
 * transaction (one writer per group, so checks that span rows hold), and the answer
 * every such procedure gives: the `seq` of the last change it recorded, if any.
 */
export async function answerGroupWrite(
  ctx: GroupLookup & { db: HostDb },
  groupDid: string,
  write: (tx: Transaction<HostDatabaseSchema>, group: GroupTable) => Promise<unknown>,
) {
  const group = await loadGroup(ctx, groupDid)
  const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
    await write(tx, group)
    return lastChangeIn(tx)
  })
  return json(seqField(seq))
}
