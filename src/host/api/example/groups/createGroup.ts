import { InvalidHandleError, normalizeAndEnsureValidHandle } from '@atproto/syntax'
import { isConstraintViolation } from '../../../db/errors.js'
import { UpstreamFailureError, XRPCError } from '@atproto/xrpc-server'
import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { createGroup } from '../../../groups/create-group.js'
import { parseJoinPolicy } from '../../../groups/join-policy.js'
import { requireHostedHandle } from '../../../groups/handle-domains.js'
import { refuse } from '../../../errors.js'
import { requireRoomForGroup } from '../../../groups/groups-per-account.js'
import { groupWithHandle } from '../../../groups/hosted-groups.js'
import { json } from '../../answers.js'

/**
 * Creates a group on this host with the caller as its owner. The group's DID is minted
 * on the PLC directory with a `#groups` service (and repo) pointing here. Handles are
 * compared case-insensitively, must be free on this host, and must be one name under one
 * of its handle domains (decisions 6.3): the host proves those itself, answering
 * /.well-known/atproto-did, as a PDS does for its accounts' handles.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.createGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { displayName, description } = input.body
      let handle: string
      try {
        handle = normalizeAndEnsureValidHandle(input.body.handle)
      } catch (err) {
        if (err instanceof InvalidHandleError) throw refuse('InvalidRequest', `Not a valid handle: ${err.message}`)
        throw err
      }
      requireHostedHandle(handle, ctx.config.handleDomains)
      const joinPolicy = parseJoinPolicy(input.body.joinPolicy)
      const creator = { did: auth.credentials.did, maxGroups: ctx.config.maxGroupsPerAccount }
      // Both checked before minting the DID so a refusal costs no PLC operation; racing
      // creations still cannot both win: the handle column is unique, and the cap is
      // checked again under the creator's lock where the group is stored.
      await requireRoomForGroup(ctx.db, creator.did, creator.maxGroups)
      const taken = await groupWithHandle(ctx.db, handle)
      if (taken) throw refuse('InvalidRequest', `The handle ${handle} is already taken on this host`)

      const created = await createGroup(ctx.db, ctx.config, {
        handle,
        displayName: displayName || undefined,
        description: description || undefined,
        joinPolicy,
        owner: auth.credentials.did,
      }, creator).catch((err: unknown) => {
        if (err instanceof XRPCError || isConstraintViolation(err)) throw err
        throw new UpstreamFailureError(`Could not register the group's DID with the PLC directory: ${(err as Error).message}`)
      })
      return json(created)
    },
  })
}
export default register
