import type { MemberItem } from '../../../../shared/ipc/views'
import { toCsv } from '../../composables/csv'

/** The roster as a spreadsheet reads it: one member a line, by name, handle (bare: a leading @ is a formula to some) and DID. */
export function rosterCsv(members: MemberItem[]): string {
  const head = ['name', 'handle', 'DID', 'roles', 'joined', 'accepted membership']
  return toCsv(
    head,
    members.map((m) => [m.displayName ?? '', m.handle ?? '', m.did, m.roles.join(' '), m.joinedAt, m.accepted ? 'yes' : 'no']),
  )
}
