import { Secp256k1Keypair } from '@atproto/crypto'
import type { HostDb } from '../db/index.js'
import { GROUPS_SERVICE_ID, GROUPS_SERVICE_TYPE, keyToBytes, mintPlcDid } from '../identity/plc.js'
import { groupKeyContext, seal } from '../secrets/sealed.js'
import { DEFAULT_ROLES } from './roles.js'
import { recordChange } from '../changes.js'
import { createWellKnownSpaces } from '../spaces/well-known.js'
import { requireRoomForGroup } from './groups-per-account.js'

export interface NewGroup {
  handle: string
  displayName?: string
  description?: string
  joinPolicy: 'open' | 'approval' | 'invite'
  owner: string
}

/** The account a createGroup call came from, and how many groups it may have created. */
export interface GroupCreator {
  did: string
  maxGroups: number
}

/**
 * Mints the group's DID on the PLC (its `#groups` service and its repo both point at
 * this host), then stores the group with the default roles and `owner` holding `owner`.
 * A group made for a `creator` counts against their cap, checked again where it is
 * stored: a creation racing theirs may have taken the last place meanwhile (its DID
 * minted in vain, the price of not holding a lock across the PLC's answer). Seeded
 * groups have no creator.
 */
export async function createGroup(
  db: HostDb,
  opts: { plcUrl: string; publicUrl: string; hostKey: Buffer },
  group: NewGroup,
  creator?: GroupCreator,
): Promise<{ did: string; handle: string; seq: number }> {
  const rotationKey = await Secp256k1Keypair.create({ exportable: true })
  const did = await mintPlcDid({
    plcUrl: opts.plcUrl,
    rotationKey,
    // Group records are signed by the host on the group's behalf; one key per group
    // keeps groups separable should one move to another host.
    signingKey: rotationKey,
    handle: group.handle,
    services: {
      [GROUPS_SERVICE_ID]: { type: GROUPS_SERVICE_TYPE, endpoint: opts.publicUrl },
      atproto_pds: { type: 'AtprotoPersonalDataServer', endpoint: opts.publicUrl },
    },
  })
  const now = new Date().toISOString()
  const rotationKeySealed = seal(opts.hostKey, await keyToBytes(rotationKey), groupKeyContext(did))
  const seq = await db.transaction().execute(async (tx) => {
    if (creator) await requireRoomForGroup(tx, creator.did, creator.maxGroups)
    await tx
      .insertInto('group')
      .values({
        did,
        handle: group.handle,
        displayName: group.displayName ?? null,
        description: group.description ?? null,
        joinPolicy: group.joinPolicy,
        rotationKeySealed,
        createdAt: now,
        createdBy: creator?.did ?? null,
      })
      .execute()
    await tx
      .insertInto('role')
      .values(
        DEFAULT_ROLES.map((r) => ({
          groupDid: did,
          name: r.name,
          actions: JSON.stringify(r.actions),
          assignable: JSON.stringify(r.assignable),
        })),
      )
      .execute()
    await createWellKnownSpaces(tx, did, now)
    await tx.insertInto('member').values({ groupDid: did, did: group.owner, joinedAt: now, acceptedAt: null }).execute()
    await tx.insertInto('member_role').values({ groupDid: did, did: group.owner, role: 'owner' }).execute()
    return recordChange(tx, did, 'group.created', did)
  })
  return { did, handle: group.handle, seq }
}

/** Adds (or re-roles) a member directly: used by seeding, not by any XRPC method. */
export async function putMember(db: HostDb, groupDid: string, did: string, roles: string[]) {
  const now = new Date().toISOString()
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('member')
      .values({ groupDid, did, joinedAt: now, acceptedAt: null })
      .onConflict((oc) => oc.doNothing())
      .execute()
    await tx.deleteFrom('member_role').where('groupDid', '=', groupDid).where('did', '=', did).execute()
    await tx
      .insertInto('member_role')
      .values(roles.map((role) => ({ groupDid, did, role })))
      .execute()
  })
}
