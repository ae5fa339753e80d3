import { describe, expect, it } from 'vitest'
import type { GroupSummary } from '../../src/shared/ipc/views'
import { keptOrder, sidebarGroups } from '../../src/renderer/src/composables/sidebar-groups'

/** A group as one account sees it: only what the sidebar reads. */
function seen(accountDid: string, did: string, opts: Partial<GroupSummary> = {}): GroupSummary {
  return { accountDid, did, handle: null, displayName: did.slice(8), roles: ['member'], actions: [], pendingRequests: 0, openSubjects: 0, ...opts } as Partial<GroupSummary> as GroupSummary
}
const accounts = [{ did: 'did:plc:alice' }, { did: 'did:plc:bob' }, { did: 'did:plc:carol' }]

describe('the sidebar’s groups', () => {
  it('lists a group several accounts reach once, opening it as the account with the most rights there', () => {
    const entries = sidebarGroups(
      [
        seen('did:plc:alice', 'did:plc:approval', { roles: ['member'] }),
        seen('did:plc:bob', 'did:plc:approval', { roles: ['admin'], actions: ['admit', 'invite'], pendingRequests: 3 }),
        seen('did:plc:carol', 'did:plc:approval', { roles: ['moderator'], actions: ['mod.read'], openSubjects: 2 }),
      ],
      accounts,
      new Set(),
    )
    expect(entries).toHaveLength(1)
    expect(entries[0]!.best.accountDid).toBe('did:plc:bob')
    expect(entries[0]!.reach.map((g) => g.accountDid)).toEqual(['did:plc:bob', 'did:plc:carol', 'did:plc:alice'])
    // Its counts once: the most any of them sees.
    expect([entries[0]!.pendingRequests, entries[0]!.openSubjects]).toEqual([3, 2])
  })

  it('puts pinned groups first, then what needs attention, then by name; accounts signed out are left out', () => {
    const groups = [
      seen('did:plc:alice', 'did:plc:zebra'),
      seen('did:plc:alice', 'did:plc:apple'),
      seen('did:plc:alice', 'did:plc:busy', { pendingRequests: 1, openSubjects: 4 }),
      seen('did:plc:alice', 'did:plc:quiet', { pendingRequests: 2 }),
      seen('did:plc:gone', 'did:plc:orphan'),
    ]
    expect(sidebarGroups(groups, accounts, new Set()).map((e) => e.name)).toEqual(['busy', 'quiet', 'apple', 'zebra'])
    expect(sidebarGroups(groups, accounts, new Set(['did:plc:zebra'])).map((e) => [e.name, e.pinned])).toEqual([
      ['zebra', true],
      ['busy', false],
      ['quiet', false],
      ['apple', false],
    ])
  })

  it('keeps its order for the visit while counts move (triage); a group pinned goes first and unpinned last, the others staying; a new group goes last', () => {
    const kept = keptOrder()
    const shown = (groups: GroupSummary[], pinned: ReadonlySet<string>) => kept(sidebarGroups(groups, accounts, pinned), pinned).map((e) => e.name)
    const none = new Set<string>()
    const before = [seen('did:plc:alice', 'did:plc:busy', { pendingRequests: 3 }), seen('did:plc:alice', 'did:plc:quiet', { pendingRequests: 1 }), seen('did:plc:alice', 'did:plc:apple')]
    expect(shown(before, none)).toEqual(['busy', 'quiet', 'apple'])
    // Triage: busy's queue empties, apple gets five: nothing moves under the pointer.
    const during = [seen('did:plc:alice', 'did:plc:busy'), seen('did:plc:alice', 'did:plc:quiet', { pendingRequests: 1 }), seen('did:plc:alice', 'did:plc:apple', { pendingRequests: 5 })]
    expect(shown(during, none)).toEqual(['busy', 'quiet', 'apple'])
    expect(shown([...during, seen('did:plc:alice', 'did:plc:aardvark', { pendingRequests: 9 })], none)).toEqual(['busy', 'quiet', 'apple', 'aardvark'])
    // Pinning is asked for: that group goes first, the others keep their places; unpinned, it goes last.
    const withNew = [...during, seen('did:plc:alice', 'did:plc:aardvark', { pendingRequests: 9 })]
    expect(shown(withNew, new Set(['did:plc:quiet']))).toEqual(['quiet', 'busy', 'apple', 'aardvark'])
    expect(shown(withNew, new Set())).toEqual(['busy', 'apple', 'aardvark', 'quiet'])
    // The next visit orders by attention.
    expect(keptOrder()(sidebarGroups(during, accounts, none), none).map((e) => e.name)).toEqual(['apple', 'quiet', 'busy'])
  })
})
