/**
 * Writes an event to a group's calendar with a group credential, end to end, against
 * the local network (docs/host.md, "Credentials"):
 *
 *   1. signs the owner in to their PDS with a password session;
 *   2. mints service auth there for each host method it calls;
 *   3. creates the group's calendar space with example.groups.createSpace, unless the
 *      group's space index (the members space) already lists it;
 *   4. gets a group credential with example.groups.getGroupAuth, bound by DPoP to a
 *      fresh, non-extractable WebCrypto P-256 key;
 *   5. creates a community.lexicon.calendar.event with com.atproto.space.createRecord,
 *      sending `Authorization: DPoP <accessJwt>` and a proof carrying `ath`.
 *
 * Run with `npm run stack` going in another terminal:
 *
 *   node --import tsx scripts/examples/group-credential.ts [stack.json] [group name]
 *
 * The stack file defaults to $STACK, then .stack/stack.json; the group to `open`.
 */
import fs from 'node:fs'
import { SignJWT, exportJWK, type JWK } from 'jose'

interface StackFile {
  pds: string
  host: { url: string; aud: string }
  accounts: { name: string; handle: string; did: string; password: string }[]
  groups: { name: string; did: string }[]
}

const stackPath = process.argv[2] ?? process.env.STACK ?? '.stack/stack.json'
const groupName = process.argv[3] ?? 'open'
const stack = JSON.parse(fs.readFileSync(stackPath, 'utf8')) as StackFile
const owner = stack.accounts.find((a) => a.name === 'owner')!
const group = stack.groups.find((g) => g.name === groupName)
if (!group) throw new Error(`${stackPath} has no group named "${groupName}"`)

const CALENDAR_TYPE = 'community.lexicon.calendar'
const EVENT = 'community.lexicon.calendar.event'
const calendar = `at://${group.did}/space/${CALENDAR_TYPE}/self`
const membersSpace = `at://${group.did}/space/members/self`

/** A JSON answer, or an Error carrying the XRPC `{error, message}` and the status. */
async function answer(res: Response, what: string): Promise<Record<string, unknown>> {
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>
  if (!res.ok) throw Object.assign(new Error(`${what}: ${res.status} ${body.error}: ${body.message}`), { status: res.status, error: body.error })
  return body
}

// 1. A password session on the owner's PDS.
const session = await answer(
  await fetch(`${stack.pds}/xrpc/com.atproto.server.createSession`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: owner.handle, password: owner.password }),
  }),
  'createSession',
)
const accessJwt = session.accessJwt as string

// 2. Service auth: aud = the host's service DID + #groups, lxm = the method to call.
async function serviceAuth(lxm: string): Promise<string> {
  const url = new URL(`${stack.pds}/xrpc/com.atproto.server.getServiceAuth`)
  url.searchParams.set('aud', stack.host.aud)
  url.searchParams.set('lxm', lxm)
  const { token } = await answer(await fetch(url, { headers: { authorization: `Bearer ${accessJwt}` } }), 'getServiceAuth')
  return token as string
}

/** Calls a host method with service auth: a query (GET) or, with a body, a procedure (POST). */
async function callHost(nsid: string, opts: { params?: Record<string, string>; body?: unknown }) {
  const url = new URL(`${stack.host.url}/xrpc/${nsid}`)
  for (const [k, v] of Object.entries(opts.params ?? {})) url.searchParams.set(k, v)
  const headers: Record<string, string> = { authorization: `Bearer ${await serviceAuth(nsid)}` }
  if (opts.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(url, { method: opts.body === undefined ? 'GET' : 'POST', headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) })
  return answer(res, nsid)
}

// 3. The calendar space: look in the space index first, create it only if it is missing.
try {
  await callHost('com.atproto.space.getRecord', {
    params: { space: membersSpace, repo: group.did, collection: 'example.groups.space', rkey: `${CALENDAR_TYPE}:self` },
  })
  console.log(`space       ${calendar} (already there)`)
} catch (err) {
  if ((err as { error?: unknown }).error !== 'RecordNotFound') throw err
  const created = await callHost('example.groups.createSpace', {
    body: {
      group: group.did,
      type: CALENDAR_TYPE,
      skey: 'self',
      name: 'Calendar',
      readableBy: ['owner', 'admin', 'moderator', 'member'],
      credentialScopes: [
        { role: 'owner', scopes: [EVENT, 'example.groups.eventImage'] },
        { role: 'admin', scopes: [EVENT, 'example.groups.eventImage'] },
      ],
    },
  })
  console.log(`space       ${created.uri} (created)`)
}

// 4. DPoP (RFC 9449): a P-256 key whose private half never leaves WebCrypto.
const { privateKey, publicKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])
const { kty, crv, x, y } = await exportJWK(publicKey)
const jwk: JWK = { kty, crv, x, y }
const dpop = { nonce: undefined as string | undefined }

const sha256 = async (s: string) => Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s))).toString('base64url')

/** A proof for one request: htm, htu (no query), iat, a fresh jti, the host's nonce, and ath with a token. */
async function proof(htm: string, htu: string, accessToken?: string): Promise<string> {
  return new SignJWT({
    htm,
    htu,
    ...(dpop.nonce ? { nonce: dpop.nonce } : {}),
    ...(accessToken ? { ath: await sha256(accessToken) } : {}),
  })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk })
    .setIssuedAt()
    .setJti(crypto.randomUUID())
    .sign(privateKey)
}

/**
 * POSTs with a DPoP proof. The host demands its own nonce: the first request is answered
 * 401 with a `DPoP-Nonce` header, and is sent once more with that nonce in a new proof.
 * Every accepted request brings the next nonce, kept for the following one.
 */
async function postWithDpop(url: string, headers: Record<string, string>, body: unknown, accessToken?: string): Promise<Response> {
  const send = async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', dpop: await proof('POST', url, accessToken) },
      body: JSON.stringify(body),
    })
    dpop.nonce = res.headers.get('dpop-nonce') ?? dpop.nonce
    return res
  }
  const first = await send()
  if (!(first.status === 401 && first.headers.has('dpop-nonce'))) return first
  console.log(`dpop        401 ${((await first.json()) as { error: string }).error}; retrying with the nonce from DPoP-Nonce`)
  return send()
}

const grant = await answer(
  await postWithDpop(
    `${stack.host.url}/xrpc/example.groups.getGroupAuth`,
    { authorization: `Bearer ${await serviceAuth('example.groups.getGroupAuth')}` },
    { group: group.did, space: calendar },
  ),
  'getGroupAuth',
)
console.log(`credential  for ${grant.did}, writes ${JSON.stringify(grant.collections)}, expires ${grant.expiresAt}`)
console.log(`scope       ${grant.scope}`)

// 5. The group's write, at the `pds` the grant names, as the group (repo = the group DID).
const now = new Date()
const startsAt = new Date(now.getTime() + 7 * 24 * 3600 * 1000)
const created = await answer(
  await postWithDpop(
    `${grant.pds}/xrpc/com.atproto.space.createRecord`,
    { authorization: `DPoP ${grant.accessJwt}` },
    {
      space: calendar,
      repo: group.did,
      collection: EVENT,
      record: { $type: EVENT, name: 'Picnic in the park', startsAt: startsAt.toISOString(), createdAt: now.toISOString() },
    },
    grant.accessJwt as string,
  ),
  'createRecord',
)
console.log(`event       ${created.uri}`)
console.log(`cid         ${created.cid}`)
