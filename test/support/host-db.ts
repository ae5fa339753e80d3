import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import type { RunningStack } from '../../src/stack/stack.js'

/**
 * Read-only look into the running host's database, for state no method exposes yet
 * (the moderation history). Everything a client can observe is asserted over HTTP.
 */
export function moderationEvents(running: RunningStack, groupDid: string): { subjectKey: string; kind: string; data: Record<string, unknown>; createdBy: string }[] {
  const db = new SqliteDatabase(path.join(running.dataDir, 'host', 'host.sqlite'), { readonly: true, fileMustExist: true })
  try {
    const rows = db
      .prepare('SELECT subjectKey, kind, data, createdBy FROM moderation_event WHERE groupDid = ? ORDER BY id')
      .all(groupDid) as { subjectKey: string; kind: string; data: string; createdBy: string }[]
    return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }))
  } finally {
    db.close()
  }
}

/** A secret the host keeps in its database (for hand-signing tokens in negative auth cases). */
export function hostSecret(running: RunningStack, name: string): string {
  const db = new SqliteDatabase(path.join(running.dataDir, 'host', 'host.sqlite'), { readonly: true, fileMustExist: true })
  try {
    const row = db.prepare('SELECT value FROM host_secret WHERE name = ?').get(name) as { value: string } | undefined
    if (!row) throw new Error(`the host has no secret ${name}`)
    return row.value
  } finally {
    db.close()
  }
}
