import type { AccountRuntime } from '../session/account-runtime.js'
import type { MemberHistory } from '../../../shared/ipc/audit-views.js'

/**
 * Someone's past in the group, for an organizer deciding on their request: asked of the
 * host when the row is shown (it is small, and looked at one person at a time).
 */
export async function memberHistory(rt: AccountRuntime, groupDid: string, did: string): Promise<MemberHistory> {
  const host = await rt.hostOf(groupDid)
  const h = await host.query('example.groups.getMemberHistory', { group: groupDid, did })
  return { member: h.member, formerMember: h.formerMember, leftAt: h.leftAt ?? null, how: h.how === 'ejected' ? 'ejected' : h.how === 'left' ? 'left' : null, banned: h.banned }
}
