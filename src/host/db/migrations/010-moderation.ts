import type { Kysely } from 'kysely'
import { addAutoId } from './portable.js'

/**
 * Moderation the Ozone way (issue 17). Reports get a table of their own, with real
 * columns, so the queue can filter by reason type and show each subject's newest words
 * without parsing JSON in SQL; `subject.lastReportedAt` orders it by newest report.
 * `takedown` holds what moderators took down: a record's space address (no longer
 * served to members) or an account's DID (ejected and banned). Existing reports are
 * copied from the moderation history, which keeps them too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addAutoId(db, db.schema.createTable('report'), 'id')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('subjectKey', 'text', (c) => c.notNull())
    .addColumn('reasonType', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('reportedBy', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('report_subject').on('report').columns(['groupDid', 'subjectKey', 'id']).execute()
  await db.schema.createIndex('report_reason').on('report').columns(['groupDid', 'reasonType']).execute()
  await db.schema
    .createTable('takedown')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('subjectKey', 'text', (c) => c.notNull())
    .addColumn('createdBy', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('takedown_pk', ['groupDid', 'subjectKey'])
    .execute()
  await db.schema.alterTable('subject').addColumn('lastReportedAt', 'text').execute()

  const d = db as Kysely<Record<string, Record<string, unknown>>>
  const old = await d
    .selectFrom('moderation_event')
    .select(['groupDid', 'subjectKey', 'data', 'createdBy', 'createdAt'])
    .where('kind', '=', 'report')
    .orderBy('id')
    .execute()
  for (const ev of old) {
    const data = JSON.parse(String(ev.data)) as { reasonType?: string; reason?: string }
    await d
      .insertInto('report')
      .values({ groupDid: ev.groupDid, subjectKey: ev.subjectKey, reasonType: data.reasonType ?? 'other', reason: data.reason ?? null, reportedBy: ev.createdBy, createdAt: ev.createdAt })
      .execute()
    await d.updateTable('subject').set({ lastReportedAt: ev.createdAt }).where('groupDid', '=', ev.groupDid).where('subjectKey', '=', ev.subjectKey).execute()
  }
  await d.updateTable('subject').set((eb) => ({ lastReportedAt: eb.ref('updatedAt') })).where('lastReportedAt', 'is', null).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subject').dropColumn('lastReportedAt').execute()
  await db.schema.dropTable('takedown').execute()
  await db.schema.dropTable('report').execute()
}
