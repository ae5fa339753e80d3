import { describe, expect, it } from 'vitest'
import type { GroupSummary } from '../../src/shared/ipc/views'
import { landingSection, rememberSection, sectionUsable } from '../../src/renderer/src/composables/group-sections'

/** A group as the window is shown it, for someone whose roles allow `actions` (the default roles' actions). */
function groupFor(actions: string[], did = 'did:plc:group') {
  return { accountDid: 'did:plc:me', did, actions } as Pick<GroupSummary, 'accountDid' | 'did' | 'actions'> as GroupSummary
}
const OWNER = ['admit', 'invite', 'mod.read', 'mod.resolve', 'role.assign', 'eject', 'group.configure']
const MODERATOR = ['mod.read', 'mod.resolve']
const MEMBER: string[] = []

describe('the section a group opens on', () => {
  it('is where each role’s work is: the queue for who admits, reports for a moderator, the calendar for a member', () => {
    expect(landingSection(groupFor(OWNER, 'did:plc:a'))).toBe('requests')
    expect(landingSection(groupFor(MODERATOR, 'did:plc:a'))).toBe('moderation')
    expect(landingSection(groupFor(MEMBER, 'did:plc:a'))).toBe('calendar')
  })

  it('is the tab last chosen in that group, and only that group', () => {
    rememberSection(groupFor(MODERATOR, 'did:plc:b'), 'members')
    expect(landingSection(groupFor(MODERATOR, 'did:plc:b'))).toBe('members')
    expect(landingSection(groupFor(MODERATOR, 'did:plc:c'))).toBe('moderation')
  })

  it('falls back to the first usable section when the roles no longer reach the remembered one', () => {
    rememberSection(groupFor(MODERATOR, 'did:plc:d'), 'moderation')
    expect(landingSection(groupFor(MODERATOR, 'did:plc:d'))).toBe('moderation')
    // The moderator role was taken away: a member now.
    expect(landingSection(groupFor(MEMBER, 'did:plc:d'))).toBe('calendar')
  })

  it('never remembers a section the roles do not reach (a deep link to one)', () => {
    rememberSection(groupFor(MEMBER, 'did:plc:e'), 'requests')
    expect(sectionUsable(groupFor(MEMBER), 'requests')).toBe(false)
    expect(landingSection(groupFor(OWNER, 'did:plc:e'))).toBe('requests')
    expect(landingSection(groupFor(MEMBER, 'did:plc:e'))).toBe('calendar')
  })
})
