import { AtUri, isValidDid, isValidNsid, isValidRecordKey } from '@atproto/syntax'

/**
 * Space addresses (spec section 2), `at://<group_did>/space/<space_type>/<skey>`, and the
 * addresses of the records in a space, `<space>/<author_did>/<collection>/<rkey>`: the
 * one parser of both for the host, the stack, the core and the window. They are at://
 * URIs with more path segments than @atproto/syntax's record URIs allow (two), so AtUri
 * splits them and each segment is checked with the syntax of its kind. Nothing is
 * percent-decoded: an encoded segment is not the address it would decode to.
 */
export interface SpaceAddress {
  /** The DID that owns the space: the group. */
  authority: string
  type: string
  skey: string
}

/** A record in a repository, `at://<repo>/<collection>/<rkey>`, or in a space. */
export interface RecordAddress {
  /** The space it is in (its address); absent for a record in a repository. */
  space?: string
  /** The author's DID (in a space, the member who wrote it). */
  repo: string
  collection: string
  rkey: string
}

/**
 * The longest address taken. Hosts key rows by these addresses (an index entry must
 * fit), and 2048 is also the longest DID atproto allows.
 */
const MAX_ADDRESS = 2048
/** As createSpace's lexicon has it. */
const MAX_SPACE_TYPE = 512
const SPACE_TYPE = /^[a-zA-Z][a-zA-Z0-9-]*(?:\.[a-zA-Z0-9-]+)*$/

/**
 * A space type: a dotted name (`community.lexicon.calendar`, `example.notes`) or a plain
 * one (`members`, `meta`). Looser than an NSID, which needs three segments: the spec
 * names no syntax, and plain and two-part types are in use.
 */
export const isValidSpaceType = (type: string): boolean => type.length <= MAX_SPACE_TYPE && SPACE_TYPE.test(type)

/** The path segments of an at:// address with a DID authority, or null when it is not one in normal form. */
function segmentsOf(uri: string): { did: string; path: string[] } | null {
  if (uri.length > MAX_ADDRESS || !uri.startsWith('at://')) return null
  let at: AtUri
  try {
    at = new AtUri(uri)
  } catch {
    return null
  }
  // Normal form only: no query, fragment, trailing or doubled slash, upper-case scheme.
  if (at.searchParams.size || at.hash || at.toString() !== uri || !isValidDid(at.host)) return null
  return { did: at.host, path: at.pathname.split('/').slice(1) }
}

function spaceOf(authority: string, [space, type, skey]: string[]): SpaceAddress | null {
  if (space !== 'space' || type === undefined || skey === undefined) return null
  return isValidSpaceType(type) && isValidRecordKey(skey) ? { authority, type, skey } : null
}

export function parseSpaceAddress(space: string): SpaceAddress | null {
  const at = segmentsOf(space)
  return at?.path.length === 3 ? spaceOf(at.did, at.path) : null
}

export const isSpaceAddress = (space: string): boolean => parseSpaceAddress(space) !== null

export const formatSpaceAddress = (s: SpaceAddress) => `at://${s.authority}/space/${s.type}/${s.skey}`

/** The key of a space's entry in its group's space index (and the core's cache): `<type>:<skey>`. */
export const spaceIndexKey = (s: Pick<SpaceAddress, 'type' | 'skey'>) => `${s.type}:${s.skey}`

/**
 * A record's own address and nothing else: `at://<did>/<collection>/<rkey>` in a
 * repository, or `<space>/<did>/<collection>/<rkey>` in a space.
 */
export function parseRecordAddress(uri: string): RecordAddress | null {
  const at = segmentsOf(uri)
  if (!at) return null
  let space: string | undefined
  let tail = at.path
  if (at.path.length === 6) {
    const address = spaceOf(at.did, at.path)
    if (!address) return null
    space = formatSpaceAddress(address)
    tail = at.path.slice(3)
  } else if (at.path.length === 2) {
    tail = [at.did, ...at.path]
  } else {
    return null
  }
  const [repo, collection, rkey] = tail as [string, string, string]
  if (!isValidDid(repo) || !isValidNsid(collection) || !isValidRecordKey(rkey)) return null
  return { ...(space ? { space } : {}), repo, collection, rkey }
}

/** A record in a space: its address parsed, with the space it is in. */
export function parseSpaceRecordAddress(uri: string): (RecordAddress & { space: string }) | null {
  const record = parseRecordAddress(uri)
  return record?.space ? (record as RecordAddress & { space: string }) : null
}

/**
 * The address of one record in a space. The author's DID is part of it, as in the
 * public permissioned-data drafts (`<space>/<author_did>/<collection>/<rkey>`): every
 * member writes `example.groups.acceptance/self` into the same members space, so
 * `<space>/<collection>/<rkey>` alone would name many records.
 */
export const spaceRecordAddress = (space: string, repo: string, collection: string, rkey: string) =>
  `${space}/${repo}/${collection}/${rkey}`
