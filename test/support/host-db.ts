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

/** A member's record as the host keeps it (member_record), for filling a space up to a bound. */
export interface KeptMemberRecord {
  groupDid: string
  space: string
  repo: string
  collection: string
  rkey: string
  value: string
}

/**
 * Puts rows straight into the running host's member_record table: how a test brings a
 * member to the bound on what the host keeps of them in a space without thousands of
 * real writes. The CID is a placeholder; these rows stand only for their count and size.
 */
export async function fillMemberRecords(running: RunningStack, rows: KeptMemberRecord[]): Promise<void> {
  const cid = 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm'
  const indexedAt = new Date().toISOString()
  if (running.hostDb) {
    const client = new pg.Client({ connectionString: running.hostDb })
    await client.connect()
    try {
      await client.query('BEGIN')
      for (const r of rows) {
        await client.query('INSERT INTO member_record ("groupDid", space, repo, collection, rkey, cid, value, "indexedAt") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
          r.groupDid,
          r.space,
          r.repo,
          r.collection,
          r.rkey,
          cid,
          r.value,
          indexedAt,
        ])
      }
      await client.query('COMMIT')
    } finally {
      await client.end()
    }
    return
  }
  const db = new SqliteDatabase(path.join(running.dataDir, 'host', 'host.sqlite'), { fileMustExist: true, timeout: 10_000 })
  try {
    const insert = db.prepare('INSERT INTO member_record (groupDid, space, repo, collection, rkey, cid, value, indexedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    db.transaction(() => {
      for (const r of rows) insert.run(r.groupDid, r.space, r.repo, r.collection, r.rkey, cid, r.value, indexedAt)
    })()
  } finally {
    db.close()
  }
}

/** How many join requests (any status) the host keeps for one person in one group, on either store. */
export async function joinRequestRows(running: RunningStack, groupDid: string, did: string): Promise<number> {
  const query = 'SELECT count(*) AS n FROM join_request WHERE "groupDid" = $1 AND did = $2'
  if (running.hostDb) {
    const client = new pg.Client({ connectionString: running.hostDb })
    await client.connect()
    try {
      const { rows } = await client.query<{ n: string }>(query, [groupDid, did])
      return Number(rows[0]!.n)
    } finally {
      await client.end()
    }
  }
  const db = new SqliteDatabase(path.join(running.dataDir, 'host', 'host.sqlite'), { readonly: true, fileMustExist: true })
  try {
    return (db.prepare(query.replace(/\$\d/g, '?')).get(groupDid, did) as { n: number }).n
  } finally {
    db.close()
  }
}

/** The `seq` of every entry the running host's change log keeps, oldest first, on either store. */
export async function changeLogSeqs(running: RunningStack): Promise<number[]> {
  const query = 'SELECT seq FROM change ORDER BY seq'
  if (running.hostDb) {
    const client = new pg.Client({ connectionString: running.hostDb })
    await client.connect()
    try {
      const { rows } = await client.query<{ seq: number }>(query)
      return rows.map((r) => Number(r.seq))
    } finally {
      await client.end()
    }
  }
  const db = new SqliteDatabase(path.join(running.dataDir, 'host', 'host.sqlite'), { readonly: true, fileMustExist: true })
  try {
    return (db.prepare(query).all() as { seq: number }[]).map((r) => r.seq)
  } finally {
    db.close()
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
