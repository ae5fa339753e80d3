import path from 'node:path'
import { openCacheDb } from '../../src/main/core/cache/cache-db.js'
import { putItem, type ItemKind } from '../../src/main/core/cache/items.js'
import type { InviteItem, JoinRequestItem, MemberItem, SubjectItem } from '../../src/shared/ipc/views.js'

/**
 * Puts `count` items of one list into an account's cache, as a sync from a very large
 * group would leave them: for tests and benches of long lists, where making thousands
 * of real accounts join would take longer than the thing measured.
 *
 * It opens the app's own cache file (under the app's data folder) with a connection of
 * its own, so it works whichever process runs the app (SQLite's WAL lets both write);
 * the app sees the rows through the list's trigger-kept revision.
 * Item i has DID `did:plc:<prefix><i, 6 digits>`, padded with x to 24 characters.
 */
async function seedCached<T>(dataDir: string, accountDid: string, groupDid: string, kind: ItemKind, count: number, prefix: string, make: (did: string, i: number) => T): Promise<string[]> {
  const cache = await openCacheDb(path.join(dataDir, 'cache'), accountDid)
  const dids: string[] = []
  try {
    await cache.transaction().execute(async (tx) => {
      for (let i = 0; i < count; i++) {
        const did = `did:plc:${`${prefix}${String(i).padStart(6, '0')}`.padEnd(24, 'x')}`
        const view = make(did, i)
        await putItem(tx, groupDid, kind, did, view, null)
        // As if already looked up (see people/list-handles.ts): these DIDs are in no directory,
        // and the app must not find that out and clear the seeded handles while a test reads them.
        const handle = (view as { handle?: string | null }).handle ?? null
        await tx.insertInto('person').values({ did, handle, checkedAt: new Date().toISOString() }).onConflict((oc) => oc.column('did').doUpdateSet({ handle })).execute()
        dids.push(did)
      }
    })
  } finally {
    await cache.destroy()
  }
  return dids
}

/** Members joined a minute apart; every handle `person<i>.test` unless `handle` says otherwise. */
export function seedCachedMembers(
  dataDir: string,
  accountDid: string,
  groupDid: string,
  count: number,
  opts: { prefix?: string; handle?: (i: number) => string | null } = {},
): Promise<string[]> {
  return seedCached(dataDir, accountDid, groupDid, 'member', count, opts.prefix ?? 'many', (did, i): Omit<MemberItem, 'pending'> => ({
    did,
    handle: opts.handle ? opts.handle(i) : `person${i}.test`,
    displayName: null,
    avatar: null,
    roles: ['member'],
    joinedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    accepted: i % 3 === 0,
  }))
}

/** Join requests asked a minute apart (request 0 first), with the message `message(i)` gives. */
export function seedCachedJoinRequests(
  dataDir: string,
  accountDid: string,
  groupDid: string,
  count: number,
  opts: { prefix?: string; message?: (i: number) => string | null } = {},
): Promise<string[]> {
  return seedCached(dataDir, accountDid, groupDid, 'joinRequest', count, opts.prefix ?? 'asks', (did, i): Omit<JoinRequestItem, 'pending'> => ({
    id: did,
    did,
    createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    message: opts.message ? opts.message(i) : null,
    handle: null,
    displayName: null,
    avatar: null,
    description: null,
    accountCreatedAt: null,
  }))
}

/** Reported accounts, updated a minute apart (subject 0 first), open unless `status` says otherwise. */
export function seedCachedSubjects(
  dataDir: string,
  accountDid: string,
  groupDid: string,
  count: number,
  opts: { prefix?: string; status?: (i: number) => 'open' | 'escalated' } = {},
): Promise<string[]> {
  return seedCached(dataDir, accountDid, groupDid, 'subject', count, opts.prefix ?? 'spam', (did, i): Omit<SubjectItem, 'pending' | 'reasonTypes' | 'lastReport' | 'takenDown' | 'assignedTo' | 'recordPreview' | 'pinned'> => {
    const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString()
    return { key: did, subject: { did }, handle: null, displayName: null, avatar: null, record: null, status: opts.status ? opts.status(i) : 'open', reportCount: 1 + (i % 3), createdAt: at, updatedAt: at }
  })
}

/** Outstanding invites sent a minute apart (invite 0 first), every third with a message naming its number. */
export function seedCachedInvites(dataDir: string, accountDid: string, groupDid: string, count: number, opts: { prefix?: string } = {}): Promise<string[]> {
  return seedCached(dataDir, accountDid, groupDid, 'invite', count, opts.prefix ?? 'guest', (did, i): Omit<InviteItem, 'pending'> => ({
    uri: `at://${groupDid}/example.groups.invite/${i}`,
    invitee: did,
    createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    expiresAt: null,
    message: i % 3 ? null : `Table ${i} at the meetup`,
    awaitingInvitee: false,
    handle: null,
    displayName: null,
    avatar: null,
  }))
}

/**
 * A group in an account's cache as a sync would leave it, with `roles` as the account's
 * own (all of the default role's actions): for benches and tests of views over many
 * groups (Today), where starting twenty real groups would take longer than the thing measured.
 */
export async function seedCachedGroup(dataDir: string, accountDid: string, groupDid: string, opts: { displayName: string; roles?: string[]; actions?: string[]; hostUrl?: string }): Promise<void> {
  const cache = await openCacheDb(path.join(dataDir, 'cache'), accountDid)
  try {
    const roles = opts.roles ?? ['owner']
    const actions = opts.actions ?? ['admit', 'eject', 'invite', 'role.assign', 'mod.read', 'mod.resolve']
    const view = { did: groupDid, displayName: opts.displayName, joinPolicy: 'approval', roles: roles.map((name) => ({ name, actions, assignable: [] })), viewer: { roles, actions } }
    const hostUrl = opts.hostUrl ?? 'http://127.0.0.1:9'
    await cache
      .insertInto('group_row')
      .values({ did: groupDid, view: JSON.stringify(view), hostUrl, hostAud: 'did:web:host.test#groups', changeCursor: null, syncedAt: new Date().toISOString() })
      .onConflict((oc) => oc.column('did').doUpdateSet({ view: JSON.stringify(view) }))
      .execute()
  } finally {
    await cache.destroy()
  }
}
