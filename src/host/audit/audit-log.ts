import type { HostDb } from '../db/index.js'

export interface AuditFilter {
  actor?: string
  kind?: string
  since?: string
  until?: string
}

/**
 * A page of a group's changes with who made them, newest first, keyed by `seq` (one
 * count across the host, so the key alone orders and resumes). Times are compared as
 * the ISO strings the log stores, which order as times do.
 */
export async function auditPage(db: HostDb, groupDid: string, filter: AuditFilter, before: number | undefined, limit: number) {
  let q = db.selectFrom('change').select(['seq', 'kind', 'subject', 'createdAt', 'actor', 'via']).where('groupDid', '=', groupDid)
  if (filter.actor) q = q.where('actor', '=', filter.actor)
  if (filter.kind) q = q.where('kind', '=', filter.kind)
  if (filter.since) q = q.where('createdAt', '>=', new Date(filter.since).toISOString())
  if (filter.until) q = q.where('createdAt', '<', new Date(filter.until).toISOString())
  if (before !== undefined) q = q.where('seq', '<', before)
  return q.orderBy('seq', 'desc').limit(limit).execute()
}
