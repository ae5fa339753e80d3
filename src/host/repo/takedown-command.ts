import { openHostDb } from '../db/index.js'
import { loadHostKey } from '../secrets/host-key.js'
import type { RepoTakedownOptions } from '../config.js'
import { restoreRepo, takeDownRepo } from './takedown.js'

/**
 * The operator's `takedown-repo` / `restore-repo` (repo/takedown.ts), on the host's own
 * database, with the host running or not (each host process reads takedowns as it serves).
 * Answers what was done, in words for the terminal.
 */
export async function setRepoTakedown(opts: RepoTakedownOptions, down: boolean, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const hostKey = loadHostKey({ keyFile: opts.keyFile, dataDir: opts.dataDir, env })
  const db = await openHostDb(opts.dataDir, hostKey, { groupCommit: false, url: opts.db })
  try {
    const group = await db.selectFrom('group').select('handle').where('did', '=', opts.did).executeTakeFirst()
    if (!group) throw new Error(`this host keeps no group ${opts.did}`)
    const name = `${opts.did} (${group.handle})`
    if (down) return (await takeDownRepo(db, opts.did, opts.reason)) ? `took down the public repo of ${name}` : `the public repo of ${name} was already taken down`
    return (await restoreRepo(db, opts.did)) ? `restored the public repo of ${name}` : `the public repo of ${name} was not taken down`
  } finally {
    await db.destroy()
  }
}
