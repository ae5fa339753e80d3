import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import pg from 'pg'
import type { RunningStack } from '../../src/stack/stack.js'
import { secretContext, unseal } from '../../src/host/secrets/sealed.js'
import { readHostKeyFile } from '../../src/host/secrets/host-key.js'

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

/** The stack's host key file (src/stack/stack.ts puts it beside the host's data). */
export const hostKeyFile = (running: RunningStack) => path.join(running.dataDir, 'host.key')

/**
 * A secret the host keeps in its database, unsealed with the stack's host key (for
 * hand-signing tokens in negative auth cases), as hex.
 */
export async function hostSecret(running: RunningStack, name: string): Promise<string> {
  const sealed = running.hostDb ? await storedSecretPg(running.hostDb, name) : storedSecretSqlite(running, name)
  if (sealed === undefined) throw new Error(`the host has no secret ${name}`)
  return unseal(readHostKeyFile(hostKeyFile(running)), sealed, secretContext(name)).toString('hex')
}

function storedSecretSqlite(running: RunningStack, name: string): string | undefined {
  const db = new SqliteDatabase(path.join(running.dataDir, 'host', 'host.sqlite'), { readonly: true, fileMustExist: true })
  try {
    return (db.prepare('SELECT value FROM host_secret WHERE name = ?').get(name) as { value: string } | undefined)?.value
  } finally {
    db.close()
  }
}

/** The same on PostgreSQL (the PostgreSQL run of the tests: vitest.postgres.config.ts). */
async function storedSecretPg(url: string, name: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ value: string }>('SELECT value FROM host_secret WHERE name = $1', [name])
    return rows[0]?.value
  } finally {
    await client.end()
  }
}

/**
 * Appends entries to the running host's change log directly (SQLite), as a burst of
 * writes would: for loads no test could make through the API in reasonable time. The
 * host's stream reads them the next time it is woken (any write through the API).
 */
export function appendChanges(running: RunningStack, groupDid: string, kind: string, subjects: string[]): void {
  const db = new SqliteDatabase(path.join(running.dataDir, 'host', 'host.sqlite'), { fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    const insert = db.prepare('INSERT INTO change (groupDid, kind, subject, createdAt) VALUES (?, ?, ?, ?)')
    const now = new Date().toISOString()
    db.transaction(() => {
      for (const subject of subjects) insert.run(groupDid, kind, subject, now)
    })()
  } finally {
    db.close()
  }
}

/** Moves a moderator's hold on a subject into the past (SQLite), as 30 minutes going by would. */
export function lapseAssignment(running: RunningStack, groupDid: string, subjectKey: string): void {
  const db = new SqliteDatabase(path.join(running.dataDir, 'host', 'host.sqlite'), { fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    db.prepare('UPDATE subject SET assignedUntil = ? WHERE groupDid = ? AND subjectKey = ?').run(new Date(Date.now() - 1_000).toISOString(), groupDid, subjectKey)
  } finally {
    db.close()
  }
}
