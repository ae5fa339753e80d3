/** Kysely table types for the group host's SQLite database. */
export interface HostSecretTable {
  name: string
  value: string
}

export interface GroupTable {
  did: string
  handle: string
  displayName: string | null
  description: string | null
  joinPolicy: 'open' | 'approval' | 'invite'
  /** Hex of the secp256k1 key that may rotate the group's PLC DID; only the host has it. */
  rotationKeyHex: string
  createdAt: string
}

export interface RoleTable {
  groupDid: string
  name: string
  /** JSON array of action names. */
  actions: string
  /** JSON array of role names this role may grant, revoke or eject. */
  assignable: string
}

export interface MemberTable {
  groupDid: string
  did: string
  joinedAt: string
}

export interface MemberRoleTable {
  groupDid: string
  did: string
  role: string
}

export interface HostDatabaseSchema {
  host_secret: HostSecretTable
  group: GroupTable
  role: RoleTable
  member: MemberTable
  member_role: MemberRoleTable
}
