import fs from 'node:fs'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import type { PdsClient } from './pds-client.js'
import { readLexicons } from '../node/lexicons.js'
import { avatarPng } from './avatar-png.js'
import type { HostSeed } from '../host/seed.js'
import {
  STACK_ACCOUNT_NAMES,
  STACK_GROUPS,
  type StackAccount,
  type StackAccountName,
} from '../shared/stack-file.js'

/** One password for every demo account: the network is loopback-only and throwaway. */
export const DEMO_PASSWORD = 'convene-demo'

/**
 * The demo people's profiles, so the window shows names and faces as it would on the
 * real network. The names avoid the words of roles and groups ("owner", "member",
 * "open"…), which the tests look for on screen.
 */
export const DEMO_PROFILES: Record<StackAccountName, { displayName: string; description: string; colour: [number, number, number] }> = {
  owner: { displayName: 'Olivia Hart', description: 'Started these groups.', colour: [196, 72, 60] },
  admin: { displayName: 'Ada Brooks', description: 'Helps run things.', colour: [52, 120, 190] },
  moderator: { displayName: 'Marco Diaz', description: 'Keeps an eye on reports.', colour: [60, 150, 90] },
  member: { displayName: 'Mina Park', description: 'Comes to most meetups.', colour: [150, 90, 180] },
  outsider: { displayName: 'Otto Fern', description: 'New in town, likes board games.', colour: [210, 150, 40] },
  outsider2: { displayName: 'Oona Lake', description: 'Photographer, looking for a walking group.', colour: [40, 160, 170] },
}

/**
 * A tag for a second set of demo people on a PDS that has some already: six base-36
 * characters, so `outsider2-<tag>` stays within the 18 the PDS allows a handle's first label.
 */
export const newAccountTag = () => BigInt(`0x${randomBytes(4).toString('hex')}`).toString(36).padStart(6, '0').slice(-6)

/**
 * The demo people, `<name>-<tag>.test` (tag `demo` unless a stack on a shared PDS needs
 * handles of its own), made side by side: each is its own PLC operation and repo.
 */
export async function createDemoAccounts(pds: PdsClient, tag = 'demo'): Promise<StackAccount[]> {
  return Promise.all(
    STACK_ACCOUNT_NAMES.map(async (name): Promise<StackAccount> => {
      const handle = `${name}-${tag}.test`
      const { did, accessJwt } = await pds.createAccount(handle, DEMO_PASSWORD)
      const profile = DEMO_PROFILES[name]
      await putProfile(pds, did, accessJwt, profile.displayName, profile.description, avatarPng(profile.colour))
      return { name, handle, did, password: DEMO_PASSWORD, displayName: profile.displayName }
    }),
  )
}

/** A person's `app.bsky.actor.profile` record (rkey `self`), its avatar uploaded first. */
export async function putProfile(pds: PdsClient, did: string, token: string, displayName: string, description: string, avatar?: Buffer): Promise<void> {
  const blob = avatar ? (await pds.uploadBlob(token, avatar, 'image/png')).blob : undefined
  await pds.call('com.atproto.repo.putRecord', {
    token,
    body: {
      repo: did,
      collection: 'app.bsky.actor.profile',
      rkey: 'self',
      record: { $type: 'app.bsky.actor.profile', displayName, description, ...(blob ? { avatar: blob } : {}), createdAt: new Date().toISOString() },
    },
  })
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
