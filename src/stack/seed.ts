import fs from 'node:fs'
import path from 'node:path'
import type { PdsClient } from './pds-client.js'
import { readLexicons } from '../node/lexicons.js'
import type { HostSeed } from '../host/seed.js'
import {
  STACK_ACCOUNT_NAMES,
  STACK_GROUPS,
  type StackAccount,
} from '../shared/stack-file.js'

/** One password for every demo account: the network is loopback-only and throwaway. */
export const DEMO_PASSWORD = 'convene-demo'

export async function createDemoAccounts(pds: PdsClient): Promise<StackAccount[]> {
  const accounts: StackAccount[] = []
  for (const name of STACK_ACCOUNT_NAMES) {
    const handle = `${name}-demo.test`
    const { did } = await pds.createAccount(handle, DEMO_PASSWORD)
    accounts.push({ name, handle, did, password: DEMO_PASSWORD })
  }
  return accounts
}

/**
 * Publishes every lexicon as a `com.atproto.lexicon.schema` record in one account's
 * repo, which the PDS is then told to resolve lexicons from. That is how the
 * permission sets behind `include:example.groups.basePermissions` become resolvable.
 */
export async function publishLexicons(pds: PdsClient): Promise<string> {
  const { did, accessJwt } = await pds.createAccount('lexicons.test', DEMO_PASSWORD)
  for (const doc of readLexicons()) {
    await pds.call('com.atproto.repo.putRecord', {
      token: accessJwt,
      body: {
        repo: did,
        collection: 'com.atproto.lexicon.schema',
        rkey: doc.id,
        record: { $type: 'com.atproto.lexicon.schema', ...doc },
      },
    })
  }
  return did
}

/** The host's seed: the three demo groups, one per join policy (decisions section 5). */
export function writeHostSeed(accounts: StackAccount[], file: string): void {
  const did = (name: string) => accounts.find((a) => a.name === name)!.did
  const seed: HostSeed = {
    groups: STACK_GROUPS.map(({ name, joinPolicy }) => ({
      handle: `${name}.groups.test`,
      displayName: `${name[0]!.toUpperCase()}${name.slice(1)} group`,
      description: `Demo group whose join policy is "${joinPolicy}".`,
      joinPolicy,
      owner: did('owner'),
      members: [
        { did: did('admin'), roles: ['admin'] },
        { did: did('moderator'), roles: ['moderator'] },
        { did: did('member'), roles: ['member'] },
      ],
    })),
  }
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, JSON.stringify(seed, null, 2))
}
