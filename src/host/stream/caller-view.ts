import type { HostDb } from '../db/index.js'
import type { ChangeTable } from '../db/schema.js'
import { viewerOf } from '../groups/access.js'
import { changeVisibility, isVisibleChange, type ChangeVisibility } from '../groups/change-visibility.js'

/** Whether the caller is a member of an entry's group, and may see the entry. */
export interface Judgement {
  member: boolean
  visible: boolean
}

/**
 * What one connection's caller may see in each group, read from the database when first
 * needed and kept while nothing could have changed it. What could is in the log itself,
 * and the stream passes every entry of the caller's groups through here in order, so a
 * group's cache is dropped at the entry that changes it, before that entry is judged:
 * `member.*` about the caller (joined, left, ejected, roles granted or revoked),
 * `group.configured` (what roles grant) and `space.*` (who reads which space). Ejected or
 * stripped of a role, the caller stops receiving what it showed from that entry on,
 * however long their token has left (an ejected or departed caller gets that one entry,
 * about themselves, and nothing after it). Entries are judged by the caller's roles when they
 * are sent: for a live stream, just after the entry was written; for a stream catching
 * up, now, as `listChanges` does. Never by roles the caller no longer holds.
 */
export class CallerView {
  private readonly cache = new Map<string, { member: boolean; visibility: ChangeVisibility | null; readAt: number }>()

  constructor(
    private readonly db: HostDb,
    readonly did: string,
    /** Re-read a group's roles at least this often, whatever the log says. */
    private readonly maxAgeMs = 5 * 60_000,
  ) {}

  async judge(change: ChangeTable): Promise<Judgement> {
    if (this.changesWhatCallerSees(change)) this.cache.delete(change.groupDid)
    let entry = this.cache.get(change.groupDid)
    if (!entry || Date.now() - entry.readAt > this.maxAgeMs) {
      const viewer = await viewerOf(this.db, change.groupDid, this.did)
      entry = {
        member: viewer.isMember,
        visibility: viewer.isMember ? await changeVisibility(this.db, change.groupDid, viewer) : null,
        readAt: Date.now(),
      }
      this.cache.set(change.groupDid, entry)
    }
    if (!entry.member) return { member: false, visible: this.isOwnDeparture(change) }
    return { member: true, visible: isVisibleChange(entry.visibility!, change) }
  }

  /**
   * The entry that ended the caller's membership (they left, or were ejected): the last
   * one they get of the group, so their app learns it is out at once instead of at its
   * next full check. It tells them nothing they could not learn from getGroup.
   */
  private isOwnDeparture(change: ChangeTable): boolean {
    return (change.kind === 'member.left' || change.kind === 'member.ejected') && change.subject === this.did
  }

  /** Forgets a group the stream no longer follows. */
  forget(groupDid: string): void {
    this.cache.delete(groupDid)
  }

  private changesWhatCallerSees(change: ChangeTable): boolean {
    if (change.kind.startsWith('member.')) return change.subject === this.did
    return change.kind === 'group.configured' || change.kind.startsWith('space.')
  }
}
