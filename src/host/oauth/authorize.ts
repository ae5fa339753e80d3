import express from 'express'
import { isValidHandle } from '@atproto/syntax'
import type { NodeOAuthClient } from '@atproto/oauth-client-node'
import type { HostContext } from '../context.js'
import { viewerOf } from '../groups/access.js'
import { OAuthError } from './errors.js'
import { clientLabel } from './client-id.js'
import { claimDevice, sameDevice } from './device.js'
import { CODE_TTL_S, loadRequest, requestUriOf, type PendingRequest } from './requests.js'
import { describeSpaceScope, narrowScope } from './space-scopes.js'
import { describeRepoScope } from './repo-scopes.js'
import { esc, formActionSource, sendOnwards, sendPage, sendProblem } from './pages.js'
import { signInFailure, signInFailureWords } from './sign-in-failure.js'
import { hashToken, nowS, randomToken, sameSecret } from './secrets.js'
import { UPSTREAM_CALLBACK_PATH } from './upstream.js'

export const AUTHORIZE_PATH = '/oauth/authorize'
const SIGN_IN_PATH = '/oauth/authorize/sign-in'
const CONSENT_PATH = '/oauth/authorize/consent'
const MAX_HANDLE_LENGTH = 253
/**
 * How long finding the person's server may take in all (their identity, then their
 * PDS's and authorization server's metadata); each request is capped on its own too
 * (src/node/safe-fetch.ts), the PAR POST included.
 */
const FIND_SERVER_TIMEOUT_MS = 10_000

type Page = (req: express.Request, res: express.Response) => Promise<void>

/** A page handler whose refusals are pages too (never a bare 500 or a JSON body). */
function pageEndpoint(handler: Page): express.RequestHandler {
  return (req, res) => {
    handler(req, res).catch((err: unknown) => {
      if (err instanceof OAuthError) return sendProblem(res, err.status, 'This sign-in cannot go on', err.message)
      ;(req as { log?: { error(entry: { err: unknown; status: number }): void } }).log?.error({ err, status: 500 })
      sendProblem(res, 500, 'Something went wrong', 'The group host could not finish this step. Start again from the app.')
    })
  }
}

/** A form body Express would not read (too large, too many fields): a page saying so, not a 500. */
const formErrors: express.ErrorRequestHandler = (err, _req, res, next) => {
  const status = (err as { status?: unknown }).status
  if (typeof status !== 'number' || status < 400 || status >= 500) return next(err)
  sendProblem(res, status, 'This sign-in cannot go on', 'The form sent was too large or could not be read. Start again from the app.')
}

/** Where the app gets its answer: the request's redirect URI, with `iss` (RFC 9207) and `state`. */
function appRedirect(ctx: HostContext, request: PendingRequest, answer: Record<string, string>): string {
  const url = new URL(request.params.redirect_uri)
  const params = new URLSearchParams({ ...answer, iss: ctx.groupAuth.oauthTokens.issuer, ...(request.params.state === undefined ? {} : { state: request.params.state }) })
  if (request.params.response_mode === 'fragment') url.hash = params.toString()
  else for (const [k, v] of params) url.searchParams.set(k, v)
  return url.href
}

/** Form fields every step posts back: which request, and its form token. */
const hiddenFields = (request: PendingRequest) =>
  `<input type="hidden" name="request_uri" value="${esc(requestUriOf(request.id))}"><input type="hidden" name="csrf" value="${esc(request.csrf)}">`

async function groupOf(ctx: HostContext, did: string) {
  return ctx.db.selectFrom('group').select(['did', 'handle', 'displayName']).where('did', '=', did).executeTakeFirstOrThrow()
}

const groupLabel = (g: { handle: string; displayName: string | null }) => (g.displayName ? `${g.displayName} (@${g.handle})` : `@${g.handle}`)

async function signInPage(ctx: HostContext, res: express.Response, request: PendingRequest, error?: string, typed = '') {
  const group = await groupOf(ctx, request.groupDid)
  const body = `
<p><strong>${esc(clientLabel(request.clientId).name)}</strong> asks to act as the group <strong>${esc(groupLabel(group))}</strong>.</p>
<p>A group has no password. Sign in with your own account: the group host then checks which roles you hold in the group.</p>
<form method="post" action="${SIGN_IN_PATH}">
${hiddenFields(request)}
<label for="handle">Your handle</label>
<input type="text" id="handle" name="handle" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="${MAX_HANDLE_LENGTH}" value="${esc(typed)}" aria-describedby="handle-hint${error ? ' handle-error' : ''}"${error ? ' aria-invalid="true"' : ''} autofocus>
<p class="hint" id="handle-hint">For example alice.example.com. Your own server will ask for your password.</p>
${error ? `<p role="alert" id="handle-error">${esc(error)}</p>` : ''}
<div class="actions"><button type="submit">Continue</button></div>
</form>`
  sendPage(res, error ? 400 : 200, `Sign in to act as ${group.displayName ?? '@' + group.handle}`, body)
}

async function consentPage(ctx: HostContext, res: express.Response, request: PendingRequest) {
  const group = await groupOf(ctx, request.groupDid)
  const viewer = await viewerOf(ctx.db, request.groupDid, request.personDid!)
  const { spaces, repo } = await narrowScope(ctx.db, request.groupDid, viewer, request.params.scope)
  const abilities = ['See that it is signed in as the group (its identity)']
  for (const s of spaces) abilities.push(describeSpaceScope(s, s.name))
  for (const r of repo) abilities.push(describeRepoScope(r))
  // The app as the host knows it: by the host of its client ID, where it proved itself
  // by serving its document, and not by the name it gives itself there.
  const client = clientLabel(request.clientId)
  const body = `
<dl>
<dt>App</dt><dd><strong>${esc(client.name)}</strong>${client.address ? `<br><span class="hint">${esc(client.address)}</span>` : ''}${client.note ? `<br><span class="hint">${esc(client.note)}</span>` : ''}</dd>
<dt>Group</dt><dd>${esc(groupLabel(group))}</dd>
<dt>You</dt><dd>@${esc(request.personHandle ?? request.personDid)}</dd>
<dt>Your roles</dt><dd>${esc(viewer.roles.join(', '))}</dd>
</dl>
<h2 id="abilities">If you allow it, the app will be able to</h2>
<ul aria-labelledby="abilities">${abilities.map((a) => `<li>${esc(a)}</li>`).join('')}</ul>
<p class="hint">Only what your roles allow. If you lose a role or leave the group, the app loses what it gave.</p>
<form method="post" action="${CONSENT_PATH}">
${hiddenFields(request)}
<div class="actions">
<button type="submit" name="decision" value="allow" autofocus>Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>`
  sendPage(res, 200, `Let ${client.inSentence} act as ${group.displayName ?? '@' + group.handle}?`, body, {
    formTargets: [formActionSource(request.params.redirect_uri)],
  })
}

/** The request a form names, if its token and the browser's cookie both match. */
async function formRequest(ctx: HostContext, req: express.Request): Promise<PendingRequest> {
  const body = (req.body ?? {}) as Record<string, unknown>
  const request = await loadRequest(ctx.db, body.request_uri)
  if (typeof body.csrf !== 'string' || !sameSecret(body.csrf, request.csrf) || !sameDevice(req, request)) {
    throw new OAuthError('access_denied', 'This form did not come from this sign-in in this browser. Start again from the app.', 403)
  }
  return request
}

/**
 * The authorization endpoint and the pages behind it (decisions 6.6): the person's own
 * sign-in through their PDS, then consent. Plain server-rendered HTML without script.
 */
export function registerAuthorize(app: express.Application, ctx: HostContext, upstream: NodeOAuthClient): void {
  const secure = new URL(ctx.config.publicUrl).protocol === 'https:'
  const form = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 20 })

  app.get(
    AUTHORIZE_PATH,
    pageEndpoint(async (req, res) => {
      const request = await loadRequest(ctx.db, req.query.request_uri)
      if (req.query.client_id !== request.clientId) throw new OAuthError('invalid_request', 'client_id does not match the sign-in request')
      const device = claimDevice(req, res, request, secure)
      if (device === 'other-browser') throw new OAuthError('access_denied', 'This sign-in was opened in another browser. Start again from the app.', 403)
      if (!request.deviceHash) {
        await ctx.db.updateTable('oauth_request').set({ deviceHash: device }).where('id', '=', request.id).where('deviceHash', 'is', null).execute()
        request.deviceHash = device
      }
      if (request.personDid) return consentPage(ctx, res, request)
      await signInPage(ctx, res, request)
    }),
  )

  app.post(
    SIGN_IN_PATH,
    form,
    formErrors,
    pageEndpoint(async (req, res) => {
      const request = await formRequest(ctx, req)
      const raw = typeof req.body.handle === 'string' ? req.body.handle.trim().replace(/^@/, '') : ''
      const handle = raw.toLowerCase()
      if (!handle || handle.length > MAX_HANDLE_LENGTH || !(isValidHandle(handle) || /^did:[a-z]+:[A-Za-z0-9._:%-]+$/.test(raw))) {
        return signInPage(ctx, res, request, 'Type your handle, such as alice.example.com.', raw.slice(0, MAX_HANDLE_LENGTH))
      }
      let url: URL
      try {
        url = await upstream.authorize(raw.startsWith('did:') ? raw : handle, { state: request.id, scope: 'atproto', signal: AbortSignal.timeout(FIND_SERVER_TIMEOUT_MS) })
      } catch (err) {
        return signInPage(ctx, res, request, signInFailureWords(signInFailure(err), raw), raw)
      }
      await ctx.db.updateTable('oauth_request').set({ personHandle: handle }).where('id', '=', request.id).execute()
      sendOnwards(res, url.href, 'your own server')
    }),
  )

  app.get(
    UPSTREAM_CALLBACK_PATH,
    pageEndpoint(async (req, res) => {
      const params = new URLSearchParams(req.url.split('?')[1] ?? '')
      let did: string
      let requestId: string | undefined
      try {
        const { session, state } = await upstream.callback(params)
        did = session.did
        requestId = state ?? undefined
        // Its word on who this is was all the host needed.
        await session.signOut().catch(() => undefined)
      } catch {
        throw new OAuthError('access_denied', 'Your server did not confirm the sign-in. Start again from the app.')
      }
      const request = await loadRequest(ctx.db, requestUriOf(requestId ?? ''))
      if (!sameDevice(req, request)) throw new OAuthError('access_denied', 'This sign-in was opened in another browser. Start again from the app.', 403)
      const viewer = await viewerOf(ctx.db, request.groupDid, did)
      if (!viewer.isMember || !viewer.roles.length) {
        const group = await groupOf(ctx, request.groupDid)
        const back = appRedirect(ctx, request, { error: 'access_denied', error_description: 'The person holds no role in the group' })
        await ctx.db.deleteFrom('oauth_request').where('id', '=', request.id).execute()
        return sendPage(
          res,
          403,
          'You hold no role in this group',
          `<p role="alert">You (@${esc(request.personHandle ?? did)}) hold no role in ${esc(groupLabel(group))}, so you cannot let an app act for it. No session was made.</p>
<p><a href="${esc(back)}">Return to ${esc(clientLabel(request.clientId).inSentence)}</a></p>`,
        )
      }
      await ctx.db.updateTable('oauth_request').set({ personDid: did }).where('id', '=', request.id).execute()
      res.redirect(303, `${AUTHORIZE_PATH}?${new URLSearchParams({ client_id: request.clientId, request_uri: requestUriOf(request.id) })}`)
    }),
  )

  app.post(
    CONSENT_PATH,
    form,
    formErrors,
    pageEndpoint(async (req, res) => {
      const request = await formRequest(ctx, req)
      if (!request.personDid) throw new OAuthError('access_denied', 'Sign in first.', 403)
      if (req.body.decision !== 'allow') {
        await ctx.db.deleteFrom('oauth_request').where('id', '=', request.id).execute()
        return void res.redirect(303, appRedirect(ctx, request, { error: 'access_denied', error_description: 'The person did not allow it' }))
      }
      // The roles as they are now, not as they were when the page was shown.
      const viewer = await viewerOf(ctx.db, request.groupDid, request.personDid)
      if (!viewer.isMember || !viewer.roles.length) throw new OAuthError('access_denied', 'You no longer hold a role in this group.', 403)
      const { scope } = await narrowScope(ctx.db, request.groupDid, viewer, request.params.scope)
      const code = randomToken()
      const set = await ctx.db
        .updateTable('oauth_request')
        .set({ codeHash: hashToken(code), scope, roles: JSON.stringify(viewer.roles), expiresAt: nowS() + CODE_TTL_S })
        .where('id', '=', request.id)
        .where('codeHash', 'is', null)
        .executeTakeFirst()
      if (Number(set.numUpdatedRows) !== 1) throw new OAuthError('invalid_request_uri', 'This sign-in was already finished.')
      res.redirect(303, appRedirect(ctx, request, { code }))
    }),
  )
}
