import { openHostDb } from '../db/index.js'
import { loadHostKey, readHostKeyFile } from './host-key.js'
import { resealAll, scrubOldValues } from './stored-secrets.js'
import type { RotateKeyOptions } from '../config.js'

/**
 * Re-seals every stored key with a new host key, in one transaction (a wrong old key
 * changes nothing), in SQLite or, with `--db`, PostgreSQL. Run it with every host
 * process stopped: a running one would go on sealing new groups' keys with the old key.
 */
export async function rotateHostKey(opts: RotateKeyOptions, env: NodeJS.ProcessEnv = process.env) {
  const oldKey = loadHostKey({ keyFile: opts.keyFile, dataDir: opts.dataDir, env })
  const newKey = readHostKeyFile(opts.newKeyFile, opts.dataDir)
  if (oldKey.equals(newKey)) throw new Error('the new key is the same as the old one')
  // Statement by statement: the scrub's VACUUM cannot run inside a group commit's transaction.
  const db = await openHostDb(opts.dataDir, oldKey, { groupCommit: false, url: opts.db })
  try {
    const counts = await resealAll(db, oldKey, newKey)
    await scrubOldValues(db)
    return counts
  } finally {
    await db.destroy()
  }
}
