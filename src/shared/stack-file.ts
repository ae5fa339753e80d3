/**
 * The shape of `.stack/stack.json`, written by `npm run stack` when the local network
 * is ready. Checks outside this code read it: the fields below are a fixed interface
 * (docs/decisions section 5). Add fields, never rename or remove them.
 */
export type JoinPolicy = 'open' | 'approval' | 'invite'

export type StackAccountName = 'owner' | 'admin' | 'moderator' | 'member' | 'outsider' | 'outsider2'
export type StackGroupName = 'open' | 'approval' | 'invite'

export interface StackAccount {
  name: StackAccountName
  handle: string
  did: string
  password: string
  /** The display name of the profile the seed gave it (with a small avatar). */
  displayName: string
}

export interface StackGroup {
  name: StackGroupName
  handle: string
  did: string
  joinPolicy: JoinPolicy
}

export interface StackFile {
  plc: string
  pds: string
  host: { url: string; serviceDid: string; aud: string }
  accounts: StackAccount[]
  groups: StackGroup[]
  /** The DID whose repo publishes the permission-set lexicons the PDS resolves. */
  lexiconAuthority: string
  /** Process id of `npm run stack`, so tools can tell a stale file from a live one. */
  pid: number
}

export const STACK_ACCOUNT_NAMES: readonly StackAccountName[] = [
  'owner',
  'admin',
  'moderator',
  'member',
  'outsider',
  'outsider2',
]

export const STACK_GROUPS: readonly { name: StackGroupName; joinPolicy: JoinPolicy }[] = [
  { name: 'open', joinPolicy: 'open' },
  { name: 'approval', joinPolicy: 'approval' },
  { name: 'invite', joinPolicy: 'invite' },
]
