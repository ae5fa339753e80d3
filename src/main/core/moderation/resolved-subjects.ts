import type { z } from 'zod'
import type { ResolvedSubjectPageView } from '../../../shared/ipc/views.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import { knownHandles } from '../people/list-handles.js'
import { isSubjectAccount, isSubjectRecord } from '../xrpc/lexicon/types/example/groups/defs.js'

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
  const known = page.subjects.flatMap((s) => {
    let subject: { did: string } | { uri: string; cid?: string }
    if (isSubjectAccount(s.subject)) subject = { did: s.subject.did }
    else if (isSubjectRecord(s.subject)) subject = { uri: s.subject.uri, ...(s.subject.cid ? { cid: s.subject.cid } : {}) }
    else return [] // a kind of subject this app does not know
    return [{ ...s, key: 'did' in subject ? subject.did : subject.uri, subject }]
  })
  const handles = await knownHandles(rt.cache, known.filter((s) => s.key.startsWith('did:')).map((s) => s.key))
  return {
    items: known.map((s) => ({
      key: s.key,
      subject: s.subject,
      handle: handles.get(s.key) ?? null,
      status: s.status,
      reportCount: s.reportCount,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      pending: false,
      reasonTypes: s.reasonTypes ?? [],
      lastReport: s.lastReport ? { reasonType: s.lastReport.reasonType, reason: s.lastReport.reason ?? null, createdAt: s.lastReport.createdAt } : null,
      takenDown: s.takenDown ?? false,
    })),
    cursor: page.cursor ?? null,
  }
}
