import { createServiceJwt } from '@atproto/xrpc-server'
import { getPdsEndpoint } from '@atproto/common-web'
import type { IdResolver } from '@atproto/identity'
import type { Keypair } from '@atproto/crypto'
import { refuse } from '../errors.js'
import type { RecordKey } from './records.js'

export const SPACE_GET_RECORD = 'com.atproto.space.getRecord'
const READ_TIMEOUT_MS = 5_000
/** A record is at most what the PDS takes in a write (its JSON limit), with room for the envelope. */
const MAX_ANSWER_BYTES = 200 * 1024

/** What the member's PDS holds at a record's address right now. */
export type MemberPdsRecord = { found: true; cid: string; value: Record<string, unknown> } | { found: false }

/**
 * The audience of the host's token: the `#atproto_pds` service of the member's own DID
 * document. It names the one PDS the member's document points at and binds the token to
 * that member's repo, so a PDS that replays it elsewhere can read nothing but that
 * member's records (a DID a server claims for itself would let a member's PDS pose as
 * another's).
 */
export const memberPdsAudience = (memberDid: string) => `${memberDid}#atproto_pds`

async function readCapped(res: Response, max: number): Promise<string> {
  const reader = res.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel()
      throw new Error(`its answer is over ${max} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * What reading from a member's PDS needs: DID resolution to find it, the host's own
 * identity to sign the request, and the SSRF-guarded fetch for peers.
 */
export interface MemberPdsReader {
  idResolver: IdResolver
  identity: { did: string; signingKey: Keypair }
  peerFetch: typeof globalThis.fetch
}

/**
 * Reads one of a member's space records from the member's own PDS (decisions 6.1: an
 * announcement is only a hint; the PDS is the source of truth), with service auth the
 * host mints with its own key: `iss` = the host's service DID, `aud` = the member's PDS
 * service, `lxm` = `com.atproto.space.getRecord`. The PDS lets the space's host read
 * (it checks the host against the group's DID document). A PDS that cannot be reached
 * or answers anything else is a refusal: nothing is counted on an unverified word.
 */
export async function readFromMemberPds(ctx: MemberPdsReader, key: RecordKey): Promise<MemberPdsRecord> {
  const doc = await ctx.idResolver.did.resolve(key.repo).catch(() => null)
  const pds = doc ? getPdsEndpoint(doc) : undefined
  if (!pds) throw refuse('InvalidRequest', `${key.repo} did not resolve to a DID document naming a PDS, so the write cannot be checked`)
  let url: URL
  try {
    url = new URL('/xrpc/' + SPACE_GET_RECORD, pds)
  } catch {
    throw refuse('InvalidRequest', `${key.repo} names a PDS address that is not a URL`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('InvalidRequest', `${key.repo}'s PDS is not at an http(s) address`)
  for (const [k, v] of Object.entries({ space: key.space, repo: key.repo, collection: key.collection, rkey: key.rkey })) url.searchParams.set(k, v)

  const token = await createServiceJwt({
    iss: ctx.identity.did as `did:${string}:${string}`,
    aud: memberPdsAudience(key.repo) as `did:${string}:${string}`,
    lxm: SPACE_GET_RECORD,
    keypair: ctx.identity.signingKey,
  })
  let status: number
  let body: { error?: unknown; cid?: unknown; value?: unknown; message?: unknown }
  try {
    // Through the SSRF guard: the address comes from a DID document the member controls.
    const res = await ctx.peerFetch(url, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'error',
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    })
    status = res.status
    body = JSON.parse(await readCapped(res, MAX_ANSWER_BYTES)) as typeof body
    if (typeof body !== 'object' || body === null) throw new Error('its answer is not a JSON object')
  } catch (err) {
    throw refuse('InvalidRequest', `Could not read the record from ${key.repo}'s PDS to check it: ${(err as Error).message}`)
  }
  if (status === 400 && body.error === 'RecordNotFound') return { found: false }
  if (status !== 200) {
    const why = typeof body.error === 'string' ? `${body.error}${typeof body.message === 'string' ? `: ${body.message}` : ''}` : `status ${status}`
    throw refuse('InvalidRequest', `${key.repo}'s PDS would not show the host the record (${why.slice(0, 300)})`)
  }
  if (typeof body.cid !== 'string' || typeof body.value !== 'object' || body.value === null || Array.isArray(body.value)) {
    throw refuse('InvalidRequest', `${key.repo}'s PDS answered without a record and its CID`)
  }
  return { found: true, cid: body.cid, value: body.value as Record<string, unknown> }
}
