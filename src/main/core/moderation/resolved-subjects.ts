import type { z } from 'zod'
import type { ResolvedSubjectPageView } from '../../../shared/ipc/views.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import { knownHandles } from '../people/list-handles.js'
import { knownProfiles } from '../people/profile-cache.js'
import { recordTitles } from './record-titles.js'
import { assignmentOf, knownSubjects, subjectKey } from '../sync/refresh-group.js'

const PAGE = 50

/**
 * Resolved reports, a page at a time, asked of the host each time (the cache keeps the
 * queue only: resolved ones pile up for ever, and are looked at rarely). This is how a
 * moderator gets back to a takedown or a ban to undo it, or reopens a hasty resolve.
 * Newest report first; handles already verified are filled in, as in the queue.
 */
export async function resolvedSubjects(rt: AccountRuntime, groupDid: string, cursor: string | undefined): Promise<z.output<typeof ResolvedSubjectPageView>> {
  const host = await rt.hostOf(groupDid)
  const page = await host.query('example.groups.listSubjects', { group: groupDid, status: 'resolved', sort: 'newestReport', limit: PAGE, cursor })
  const known = knownSubjects(page.subjects)
  const handles = await knownHandles(rt.cache, known.map((s) => subjectKey(s.subject)).filter((k) => k.startsWith('did:')))
  const profiles = await knownProfiles(rt.cache, known.map((s) => subjectKey(s.subject)).filter((k) => k.startsWith('did:')))
  const titles = await recordTitles(rt.cache, groupDid, known.flatMap((s) => ('uri' in s.subject ? [s.subject.uri] : [])))
  return {
    items: known.map((s) => {
      const key = subjectKey(s.subject)
      return {
        displayName: profiles.get(key)?.displayName ?? null,
        avatar: profiles.get(key)?.avatar ?? null,
        record: titles.get(key) ?? null,
        ...s,
        key,
        handle: handles.get(key) ?? null,
        pending: false,
        reasonTypes: s.reasonTypes ?? [],
        lastReport: s.lastReport ? { ...s.lastReport, reason: s.lastReport.reason ?? null } : null,
        takenDown: s.takenDown ?? false,
        recordPreview: s.recordPreview ?? null,
        assignedTo: assignmentOf(s, handles),
        // A decision unpins: a resolved subject is never pinned.
        pinned: null,
      }
    }),
    cursor: page.cursor ?? null,
  }
}
