import type { IdResolver } from '@atproto/identity'
import { getPdsEndpoint, type DidDocument } from '@atproto/common-web'
import { imageTypeOf } from '@shared/image-type.js'

type Fetch = typeof globalThis.fetch

/** What the window shows of a person besides their handle: from their own `app.bsky.actor.profile` record. */
export interface Profile {
  displayName: string | null
  /** Their bio. */
  description: string | null
  /** Their avatar as a data: URL (the renderer's CSP allows `img-src data:`), or null when none, too big, or not an image. */
  avatar: string | null
  /** The avatar blob's CID: says when the picture changed without comparing it. */
  avatarCid: string | null
  /** When their DID was first registered (did:plc audit log), for the account's age; null when not known cheaply. */
  accountCreatedAt: string | null
}

/**
 * Avatars are kept whole in the cache and cross to the window as data: URLs, so only small ones are taken
 * (a thumbnail-sized picture); a bigger one shows initials instead. The main process cannot resize images.
 */
export const AVATAR_MAX_BYTES = 48 * 1024
/** Each request to someone's PDS or the PLC directory: a slow one must not hold up the others. */
export const PROFILE_TIMEOUT_MS = 5_000
const DISPLAY_NAME_MAX = 64
const DESCRIPTION_MAX = 512

export interface ProfileReaderDeps {
  idResolver: Pick<IdResolver, 'did'>
  /** The fetch for peers' PDSes (SSRF-guarded: src/node/safe-fetch.ts createPeerFetch). */
  fetch: Fetch
  /** The PLC directory, for a did:plc's first registration; its fetch (trusted) may differ. */
  plc?: { url: string; fetch: Fetch }
  timeoutMs?: number
}

const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null)

/**
 * Reads one person's profile from their own PDS (getRecord and getBlob need no sign-in),
 * each request with its own time limit. Throws when the PDS could not be asked (so the
 * cache keeps what it had); a person with no profile record gets an empty profile.
 */
export function createProfileReader(deps: ProfileReaderDeps): (did: string) => Promise<Profile> {
  const timeoutMs = deps.timeoutMs ?? PROFILE_TIMEOUT_MS
  const get = (fetch: Fetch, url: URL) => fetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) })

  async function avatarOf(pds: string, did: string, blob: unknown): Promise<{ avatar: string | null; avatarCid: string | null }> {
    const b = blob as { ref?: { $link?: unknown }; size?: unknown } | undefined
    const cid = typeof b?.ref?.$link === 'string' ? b.ref.$link : null
    if (!cid) return { avatar: null, avatarCid: null }
    if (typeof b?.size === 'number' && b.size > AVATAR_MAX_BYTES) return { avatar: null, avatarCid: cid }
    const url = new URL('/xrpc/com.atproto.sync.getBlob', pds)
    url.searchParams.set('did', did)
    url.searchParams.set('cid', cid)
    try {
      const res = await get(deps.fetch, url)
      if (!res.ok) return { avatar: null, avatarCid: cid }
      const bytes = new Uint8Array(await res.arrayBuffer())
      const mime = bytes.length <= AVATAR_MAX_BYTES ? imageTypeOf(bytes) : null
      return { avatar: mime ? `data:${mime};base64,${Buffer.from(bytes).toString('base64')}` : null, avatarCid: cid }
    } catch {
      // The picture is a nicety: a profile without it is still worth keeping.
      return { avatar: null, avatarCid: cid }
    }
  }

  async function accountCreatedAt(did: string): Promise<string | null> {
    if (!deps.plc || !did.startsWith('did:plc:')) return null
    try {
      const res = await get(deps.plc.fetch, new URL(`/${encodeURIComponent(did)}/log/audit`, deps.plc.url))
      if (!res.ok) return null
      const log = (await res.json()) as { createdAt?: unknown }[]
      const first = Array.isArray(log) ? log[0]?.createdAt : undefined
      return typeof first === 'string' && !Number.isNaN(Date.parse(first)) ? first : null
    } catch {
      return null
    }
  }

  return async (did) => {
    const doc = await deps.idResolver.did.resolve(did)
    const pds = doc ? getPdsEndpoint(doc as DidDocument) : undefined
    if (!pds) throw new Error('no PDS in the DID document')
    const url = new URL('/xrpc/com.atproto.repo.getRecord', pds)
    url.searchParams.set('repo', did)
    url.searchParams.set('collection', 'app.bsky.actor.profile')
    url.searchParams.set('rkey', 'self')
    const [res, createdAt] = await Promise.all([get(deps.fetch, url), accountCreatedAt(did)])
    if (res.status === 400) {
      const body = (await res.json().catch(() => ({}))) as { error?: string }
      // No profile record: a person, just without a name or picture.
      if (body.error === 'RecordNotFound') return { displayName: null, description: null, avatar: null, avatarCid: null, accountCreatedAt: createdAt }
    }
    if (!res.ok) throw new Error(`getRecord answered ${res.status}`)
    const value = ((await res.json()) as { value?: Record<string, unknown> }).value ?? {}
    return {
      displayName: text(value.displayName, DISPLAY_NAME_MAX),
      description: text(value.description, DESCRIPTION_MAX),
      ...(await avatarOf(pds, did, value.avatar)),
      accountCreatedAt: createdAt,
    }
  }
}
