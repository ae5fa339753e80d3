/**
 * Space addresses (spec section 2): `at://<group_did>/space/<space_type>/<skey>`. They
 * are not at-uris in @atproto/syntax's sense (that allows at most two path segments),
 * so they are parsed here.
 */
export interface SpaceAddress {
  /** The DID that owns the space: the group. */
  authority: string
  type: string
  skey: string
}

// DID syntax (atproto: method lowercase, identifier without trailing ':'); the space
// type is an NSID-like dotted name or a plain one (`members`, `meta`); the skey has
// record-key syntax.
const SPACE = /^at:\/\/(did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-])\/space\/([a-zA-Z][a-zA-Z0-9-]*(?:\.[a-zA-Z0-9-]+)*)\/([a-zA-Z0-9._:~-]{1,512})$/

export function parseSpaceAddress(space: string): SpaceAddress | null {
  if (space.length > 2048) return null
  const m = SPACE.exec(space)
  if (!m) return null
  const [, authority, type, skey] = m as unknown as [string, string, string, string]
  if (skey === '.' || skey === '..') return null
  return { authority, type, skey }
}

export const formatSpaceAddress = (s: SpaceAddress) => `at://${s.authority}/space/${s.type}/${s.skey}`

/**
 * The address of one record in a space. The author's DID is part of it, as in the
 * public permissioned-data drafts (`<space>/<author_did>/<collection>/<rkey>`): every
 * member writes `example.groups.acceptance/self` into the same members space, so
 * `<space>/<collection>/<rkey>` alone would name many records.
 */
export const spaceRecordAddress = (space: string, repo: string, collection: string, rkey: string) =>
  `${space}/${repo}/${collection}/${rkey}`
