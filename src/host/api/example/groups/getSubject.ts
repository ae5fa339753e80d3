import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { requireSubject, subjectViews } from '../../../moderation/subjects.js'
import { mayKnowReporters, reportView } from '../../../moderation/reports.js'
import { historyView, subjectPages } from '../../../moderation/history.js'
import { spaceOfRecord } from '../../../moderation/takedowns.js'
import { parseSpaceRecordAddress } from '../../../../shared/space-address.js'
import { findStoredRecord } from '../../../spaces/readers.js'
import { groupRecordReader, isServed, recordVisibility } from '../../../spaces/record-visibility.js'
import type { Viewer } from '../../../groups/access.js'
import type { HostContext } from '../../../context.js'
import { decodeCursor } from '../../../pagination.js'
import { json, cursorField } from '../../answers.js'

/**
 * One subject for the moderator's detail pane (needs `mod.read`): the subject as the
 * queue shows it, the record as members were served it (for a record in one of the
 * group's spaces, taken down or not), its reports and its history, newest first, paged
 * together. Reporters are left out when the reader is the reported person.
 *
 * `mod.read` is no key to every space: a record in a space the moderator's roles may not
 * read is served to them as it is by listRecords, not at all. They still get its
 * reports and history (what members said about it, to act on), but `record` is left out
 * and `recordWithheld` says so (spaces/record-visibility.ts).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.getSubject({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const reader = auth.credentials.did
      const group = await loadGroup(ctx, params.group)
      const viewer = await viewerOf(ctx.db, group.did, reader)
      requireAction(viewer, 'mod.read')
      const key = params.subject
      const row = await requireSubject(ctx.db, group.did, key)
      // The cursor holds the lowest report id and history id shown so far (0: that list ended).
      const after = decodeCursor(params.cursor, ['int', 'int'])
      const showReporter = mayKnowReporters(key, reader)

      const { reports: shownReports, history: shownHistory, cursor } = await subjectPages(ctx.db, group.did, key, after, params.limit)

      const [subject] = await subjectViews(ctx.db, group.did, [row], reader)
      // Only the first page carries the subject's content; later ones page the lists.
      const content = after ? {} : await recordContent(ctx, group.did, viewer, key, subject!.takenDown ?? false)
      return json({
        subject: subject!,
        ...content,
        reports: shownReports.map((r) => reportView(r, showReporter)),
        history: shownHistory.map((h) => historyView(h, showReporter)),
        ...cursorField(cursor),
      })
    },
  })
}

/**
 * For a record in one of the group's spaces, what this moderator is shown of it: its
 * value when the host has it and their roles may read its space (taken down or not:
 * they hold `mod.read`), else `recordWithheld`. Whether the host has a record in a space
 * they may not read is not told either. Nothing for anything else (an account, a record
 * elsewhere).
 */
async function recordContent(ctx: HostContext, groupDid: string, viewer: Viewer, uri: string, takenDown: boolean): Promise<{ record?: Record<string, unknown>; recordWithheld?: true }> {
  const space = spaceOfRecord(groupDid, uri)
  if (!space) return {}
  const reader = await groupRecordReader(ctx.db, groupDid, viewer)
  if (!isServed(recordVisibility(reader, uri, takenDown))) return { recordWithheld: true }
  const { repo, collection, rkey } = parseSpaceRecordAddress(uri)!
  const row = await findStoredRecord(ctx.db, groupDid, { space, repo, collection, rkey })
  return row ? { record: JSON.parse(row.value) as Record<string, unknown> } : {}
}
export default register
