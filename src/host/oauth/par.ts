import type express from 'express'
import { isValidHandle } from '@atproto/syntax'
import type { HostContext } from '../context.js'
import { oauthEndpoint, oauthError } from './errors.js'
import { allowsRedirect, loadClientMetadata } from './client-metadata.js'
import { parseClientId } from './client-id.js'
import { ClientMetadataCache } from './client-cache.js'
import { PAR_TTL_S, pruneRequests, requestUriOf, storedClient, type RequestParams } from './requests.js'
import { nowS, randomToken } from './secrets.js'
import { undeclaredAtGroupHost } from '../../shared/declared-scopes.js'

export const PAR_PATH = '/oauth/par'

const MAX_PARAM_LENGTH = 2048
// RFC 7636 section 4.1: 43 to 128 unreserved characters.
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/

/** One string parameter of the form body: absent, or a single string of bounded length. */
function param(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name]
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string') throw oauthError('invalid_request', `${name} must be given once, as a string`)
  if (value.length > MAX_PARAM_LENGTH) throw oauthError('invalid_request', `${name} is too long`)
  return value
}

/** The group a `login_hint` names: its handle or DID, hosted here. */
async function groupOf(ctx: HostContext, hint: string | undefined): Promise<string> {
  if (!hint) throw oauthError('invalid_request', 'login_hint is required: the handle or DID of the group to sign in as')
  const value = hint.replace(/^@/, '').toLowerCase()
  const query = ctx.db.selectFrom('group').select('did')
  const group = hint.startsWith('did:')
    ? await query.where('did', '=', hint).executeTakeFirst()
    : isValidHandle(value)
      ? await query.where('handle', '=', value).executeTakeFirst()
      : undefined
  if (!group) throw oauthError('invalid_request', 'login_hint must be the handle or DID of a group hosted here')
  return group.did
}

/**
 * Pushed authorization requests (RFC 9126), the only way in (atproto requires PAR).
 * Checks the client's metadata, the redirect URI, PKCE (S256 only), the scope against
 * what the client declares, and the group in `login_hint`; binds the request to the
 * DPoP key of its proof (the code is exchanged with that key only). Answers 201 with a
 * `request_uri` for the authorization page.
 *
 * The DPoP proof is checked before the client's document is fetched: a request without
 * a valid proof (every client's first, which only gets a nonce) costs no fetch, and
 * documents are kept a while (client-cache.ts), so many requests cost one.
 */
export function registerPar(app: express.Application, ctx: HostContext): void {
  const rules = { allowLoopbackDocuments: ctx.config.allowLoopbackPeers }
  const documents = new ClientMetadataCache((clientId) => loadClientMetadata(clientId, ctx.peerFetch, rules))
  app.post(
    PAR_PATH,
    oauthEndpoint(async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>
      if (typeof body !== 'object' || Array.isArray(body)) throw oauthError('invalid_request', 'Send the request as a form')
      if (body.request !== undefined || body.request_uri !== undefined) {
        throw oauthError('request_not_supported', 'Send the parameters themselves; request objects are not supported')
      }
      const clientId = parseClientId(param(body, 'client_id'), rules)
      const proof = await ctx.groupAuth.dpop.verify(req, res, { checker: 'authServer' })
      // A development client's metadata is its own ID: nothing to fetch or keep.
      const client = clientId.kind === 'loopback' ? await loadClientMetadata(clientId.id, ctx.peerFetch, rules) : await documents.get(clientId.id)
      const dpopJkt = param(body, 'dpop_jkt')
      if (dpopJkt !== undefined && dpopJkt !== proof.jkt) throw oauthError('invalid_dpop_proof', 'dpop_jkt is not the key that signed the DPoP proof')

      if (param(body, 'response_type') !== 'code') throw oauthError('unsupported_response_type', 'response_type must be "code"')
      const redirectUri: string | undefined = param(body, 'redirect_uri') ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined)
      if (!redirectUri) throw oauthError('invalid_request', 'redirect_uri is required: the client has several')
      if (!allowsRedirect(client, redirectUri)) throw oauthError('invalid_request', 'redirect_uri is not one of the client\'s redirect_uris')
      const method = param(body, 'code_challenge_method')
      const challenge = param(body, 'code_challenge')
      if (!challenge) throw oauthError('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256')
      if (method !== 'S256') throw oauthError('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)')
      if (!CODE_CHALLENGE.test(challenge)) throw oauthError('invalid_request', 'code_challenge must be 43 to 128 base64url characters')
      const responseMode = param(body, 'response_mode') ?? 'query'
      if (responseMode !== 'query' && responseMode !== 'fragment') throw oauthError('invalid_request', 'response_mode must be query or fragment')

      const scope = param(body, 'scope') ?? client.scope
      const asked = scope.split(' ').filter(Boolean)
      if (!asked.includes('atproto')) throw oauthError('invalid_scope', 'scope must include "atproto"')
      // A published client declares group-agnostic space scopes (decisions 7.4): they cover this group's.
      const undeclared = undeclaredAtGroupHost(client.scope, asked.join(' '))
      if (undeclared.length) throw oauthError('invalid_scope', `The client's metadata does not declare: ${undeclared.join(' ').slice(0, 300)}`)

      const loginHint = param(body, 'login_hint')
      const groupDid = await groupOf(ctx, loginHint)
      const state = param(body, 'state')
      const params: RequestParams = {
        redirect_uri: redirectUri,
        scope: asked.join(' '),
        code_challenge: challenge,
        response_mode: responseMode,
        login_hint: loginHint!,
        ...(state === undefined ? {} : { state }),
      }
      const id = randomToken(24)
      await pruneRequests(ctx.db)
      await ctx.db
        .insertInto('oauth_request')
        .values({
          id,
          clientId: client.client_id,
          clientMetadata: storedClient(client),
          params: JSON.stringify(params),
          jkt: proof.jkt,
          groupDid,
          deviceHash: null,
          csrf: randomToken(),
          personDid: null,
          personHandle: null,
          roles: null,
          scope: null,
          codeHash: null,
          expiresAt: nowS() + PAR_TTL_S,
        })
        .execute()
      res.status(201).set('Cache-Control', 'no-store').json({ request_uri: requestUriOf(id), expires_in: PAR_TTL_S })
    }),
  )
}
