import fs from 'node:fs'
import path from 'node:path'
import type { Handlers } from './ipc/dispatch.js'
import { closingGate } from './ipc/closing-gate.js'
import { UserFacingError } from './ipc/errors.js'
import { Accounts } from './accounts/accounts.js'
import type { IdentityNetwork } from './accounts/oauth-client.js'
import { ATPROTO_NETWORK_SCOPE, groupScopes } from '../../shared/scopes.js'
import { createIdResolver } from '../../node/id-resolver.js'
import { createHostCallFetch, createPeerFetch, createTrustedFetch } from '../../node/safe-fetch.js'
import { createProfileReader } from './people/profile-reader.js'
import { GroupService } from './groups/group-service.js'
import { handleResolver, strictHandleResolver } from './groups/handle-resolver.js'
import { walkInResolver } from './people/walk-in-lookup.js'
import { findMyGroups } from './groups/find-my-groups.js'
import { acceptInvite, declineInvite, listMyInvites } from './invites/my-invites.js'
import { inviteList } from './invites/invite-list.js'
import { publicPosts } from './posts/public-posts.js'
import { resolvePerson } from './people/resolve-person.js'
import { KeychainUnavailableError, type SecretStore } from './secrets/secret-store.js'
import type { AppInfo } from '../../shared/ipc/contract.js'
import type { Updater } from './updates/updater.js'
import { UpdateController, UPDATES_UNAVAILABLE } from './updates/update-controller.js'
import { errorFields, log } from './log/log.js'
import { NoticeHub } from './ipc/notices.js'
import { GroupSessions } from './group-sessions/group-sign-in.js'
import { createEventAsGroup } from './group-sessions/calendar-as-group.js'
import { resolvedSubjects } from './moderation/resolved-subjects.js'
import { auditLog } from './audit/audit-log.js'
import { memberHistory } from './membership/member-history.js'
import { subjectDetail } from './moderation/subject-detail.js'
import { undoHoldMs } from './outbox/undo-hold.js'
import type { LocalNetwork } from './network.js'

export interface CoreOptions {
  version: string
  shell: AppInfo['shell']
  network: LocalNetwork
  secrets: SecretStore & { probe?: () => Promise<void> }
  /** Where the per-account caches live (never secrets). */
  dataDir: string
  /** How often to send queues and catch up with hosts in the background (0: never). */
  syncIntervalMs?: number
  /**
   * Hold a live connection to each group host that pushes changes (default true); the
   * background pass then leaves the groups it keeps up to date alone.
   */
  liveUpdates?: boolean
  /**
   * How long a lost live connection waits before its next try, after `attempt` failed ones
   * (default: live/backoff.ts, doubling from a second to a minute). Tests hold an app away
   * from its host with it.
   */
  liveRetryDelayMs?: (attempt: number) => number
  /** Opens a URL in the system browser; the loopback shell has none (its page opens it). */
  openUrl?: (url: string) => Promise<void>
  /**
   * Brings the window to the front. Electron's renderer cannot do it itself on every
   * desktop (window.focus() only focuses the page); a browser tab raises itself.
   */
  raiseWindow?: () => void
  /** The installed app's updater; none in the loopback shell and development runs. */
  updater?: Updater
  /** The folder the shell's log is written to (default `<dataDir>/logs`, the loopback shell's). */
  logFolder?: string
  /** Opens a folder in the system's file manager; a browser tab cannot (the loopback shell). */
  openFolder?: (folder: string) => Promise<void>
}

export interface AppCore {
  handlers: Handlers
  /** Change notices for the window (the shells carry them: IPC events, the loopback event stream). */
  notices: NoticeHub
  groups: GroupService
  close(): Promise<void>
}

/**
 * The main process's logic, free of Electron: both the Electron adapter and the
 * loopback shell construct one and route contract calls to its handlers.
 */
export async function createCore(opts: CoreOptions): Promise<AppCore> {
  let keychain: AppInfo['keychain'] = { available: true, message: null }
  try {
    await opts.secrets.probe?.()
  } catch (err) {
    if (!(err instanceof KeychainUnavailableError)) throw err
    log.error('core', 'keychain unavailable', errorFields(err.cause))
    keychain = { available: false, message: err.message }
  }
  // The local network is plain http and resolves handles through its PDS; on the real
  // network the oauth-client uses its secure defaults.
  const identity: IdentityNetwork = opts.network
    ? { plcUrl: opts.network.plcUrl, handleResolverUrl: opts.network.pdsUrl, allowHttp: true }
    : { allowHttp: false }
  // Local network: the host is known, so ask for its methods up front. Elsewhere hosts
  // become known as groups are added; their scopes are asked for then (ScopeMissingError).
  const scope = opts.network ? groupScopes(opts.network.hostAud) : ATPROTO_NETWORK_SCOPE
  const notices = new NoticeHub()
  const accounts = new Accounts({ secrets: opts.secrets, network: identity, scope, openUrl: opts.openUrl, onSessionLost: (did) => notices.emit('account.state', { did }) })
  const idResolver = createIdResolver(opts.network?.plcUrl ?? 'https://plc.directory')
  const localNetworkFetch = createTrustedFetch()
  const resolveHandle = handleResolver(idResolver, opts.network, localNetworkFetch)
  // Group hosts and people's PDSes are named in DID documents anyone can write: public
  // addresses only, time and size limits, no redirects (the local network's are on loopback).
  const peerFetch = createPeerFetch({ allowLoopbackPeers: opts.network !== null })
  const walkIns = walkInResolver({ idResolver, lookUpHandle: strictHandleResolver(idResolver, opts.network, localNetworkFetch) })
  const groups = new GroupService({
    notices,
    accounts,
    dataDir: opts.dataDir,
    idResolver,
    resolveHandle,
    hostFetch: peerFetch,
    hostCalls: createHostCallFetch({ allowLoopbackPeers: opts.network !== null }),
    walkIns,
    liveRetryDelayMs: opts.liveRetryDelayMs,
    defaultHostUrl: opts.network?.hostUrl,
    readProfile: createProfileReader({
      idResolver,
      fetch: peerFetch,
      plc: { url: opts.network?.plcUrl ?? 'https://plc.directory', fetch: createTrustedFetch() },
    }),
  })
  const groupSessions = new GroupSessions({ secrets: opts.secrets, network: identity, idResolver, resolveHandle, hostFetch: peerFetch, openUrl: opts.openUrl })
  /** One search per account at a time: the window asks after sign-in and on start. */
  const finding = new Map<string, ReturnType<typeof findMyGroups>>()
  const onKnownHosts = { groups, accounts, idResolver, resolveHandle, hostFetch: peerFetch, defaultHostUrl: opts.network?.hostUrl }
  const findMine = (accountDid: string) => {
    let search = finding.get(accountDid)
    if (!search) {
      search = findMyGroups(accountDid, onKnownHosts).finally(() => finding.delete(accountDid))
      finding.set(accountDid, search)
    }
    return search
  }
  const requireKeychain = () => {
    if (!keychain.available) throw new UserFacingError('KeychainUnavailable', keychain.message ?? 'No keychain is available.')
  }

  const live = (opts.liveUpdates ?? true) && keychain.available
  /**
   * One sync pass at a time, whoever asks (the timer or the person), so progress reads as
   * one. The timer's pass leaves out groups a live connection keeps up to date (their
   * queues are still sent); the person's "Sync now" checks every group.
   */
  let syncing: Promise<void> | null = null
  const syncOnce = (background = false) =>
    (syncing ??= groups.syncing
      .syncAll({ skip: background && live ? (a, g) => groups.live.covers(a, g) : undefined, caughtUp: (a, g) => groups.live.caughtUp(a, g), now: !background })
      .finally(() => (syncing = null)))

  /** Changes queued or being sent, across every account: a restart to update waits for them. */
  const pendingChanges = async () =>
    keychain.available ? (await groups.reading.outbox()).filter((r) => r.state === 'queued' || r.state === 'sending').length : 0
  const updates = opts.updater ? new UpdateController({ updater: opts.updater, pendingChanges, log: (m) => console.error(m) }) : null

  const handlers: Handlers = {
    'app.getInfo': async () => ({
      name: 'Convene',
      version: opts.version,
      shell: opts.shell,
      network: opts.network
        ? { kind: 'local', pdsUrl: opts.network.pdsUrl, hostUrl: opts.network.hostUrl }
        : { kind: 'atproto', pdsUrl: null, hostUrl: null },
      keychain,
    }),
    'app.raiseWindow': async () => {
      opts.raiseWindow?.()
      return {}
    },
    'app.updateStatus': async () => updates?.status() ?? UPDATES_UNAVAILABLE,
    'app.restartToUpdate': async () => (updates ? updates.restartToUpdate() : UPDATES_UNAVAILABLE),
    'app.openLogFolder': async () => {
      const folder = opts.logFolder ?? path.join(opts.dataDir, 'logs')
      if (!opts.openFolder) return { folder, opened: false }
      // Nothing may have been logged yet: the folder still opens.
      fs.mkdirSync(folder, { recursive: true })
      await opts.openFolder(folder)
      return { folder, opened: true }
    },
    'accounts.list': async () => (keychain.available ? accounts.store.list() : []),
    'accounts.signIn': async ({ handle, scopes }) => {
      requireKeychain()
      return accounts.startSignIn(handle, scopes)
    },
    'accounts.awaitSignIn': async ({ attemptId }) => {
      const account = await accounts.awaitSignIn(attemptId)
      notices.emit('account.state', { did: account.did })
      return account
    },
    'accounts.signOut': async ({ did }) => {
      requireKeychain()
      await accounts.signOut(did)
      notices.emit('account.state', { did })
      notices.emit('groups.changed', {})
      return {}
    },
    'groups.list': async () => (keychain.available ? groups.reading.listGroups() : []),
    'groups.add': async ({ accountDid, ref }) => groups.syncing.addGroup(accountDid, ref),
    'groups.refresh': async ({ accountDid, groupDid }) => groups.syncing.refresh(accountDid, groupDid),
    'groups.findMine': async ({ accountDid }) => findMine(accountDid),
    'invites.createMany': async ({ accountDid, groupDid, refs, message }) => ({ results: await inviteList(groups, { idResolver, resolveHandle }, accountDid, groupDid, refs, message) }),
    'invites.mine': async ({ accountDid }) => listMyInvites(accountDid, onKnownHosts),
    'invites.accept': async ({ accountDid, groupDid }) => (await acceptInvite(accountDid, groupDid, onKnownHosts), {}),
    'invites.decline': async ({ accountDid, groupDid }) => (await declineInvite(accountDid, groupDid, onKnownHosts), {}),
    'groups.joinRequests': async ({ accountDid, groupDid, ...query }) => groups.reading.joinRequests(accountDid, groupDid, query),
    'groups.openJoinRequests': async ({ accountDid, groupDid, q }) => groups.reading.openJoinRequests(accountDid, groupDid, q),
    'groups.members': async ({ accountDid, groupDid, ...query }) => groups.reading.members(accountDid, groupDid, query),
    'groups.invites': async ({ accountDid, groupDid, ...query }) => groups.reading.invites(accountDid, groupDid, query),
    'groups.subjects': async ({ accountDid, groupDid, ...query }) => groups.reading.subjects(accountDid, groupDid, query),
    'groups.subject': async ({ accountDid, groupDid, key }) => subjectDetail(await groups.runtime(accountDid), groupDid, key),
    'groups.resolvedSubjects': async ({ accountDid, groupDid, cursor }) => resolvedSubjects(await groups.runtime(accountDid), groupDid, cursor),
    'groups.memberHistory': async ({ accountDid, groupDid, did }) => memberHistory(await groups.runtime(accountDid), groupDid, did),
    'groups.auditLog': async ({ accountDid, groupDid, ...filter }) => auditLog(await groups.runtime(accountDid), groupDid, filter),
    'groups.publicPosts': async ({ accountDid, groupDid }) => publicPosts(await groups.runtime(accountDid), groupDid),
    'groups.events': async ({ accountDid, groupDid }) => groups.reading.events(accountDid, groupDid),
    'groups.eventImage': async ({ accountDid, groupDid, cid }) => groups.reading.eventImage(accountDid, groupDid, cid),
    'people.resolve': async ({ ref }) => {
      const person = await resolvePerson(ref, { idResolver, resolveHandle })
      if (person.handle && keychain.available) await groups.rememberHandle(person.did, person.handle)
      return person
    },
    'groups.spaces': async ({ accountDid, groupDid }) => groups.reading.spaces(accountDid, groupDid),
    'groups.create': async ({ accountDid, ...input }) => groups.organizing.createGroup(accountDid, input),
    'groups.act': async ({ accountDid, groupDid, action, hold }) => ({ outboxId: await groups.organizing.act(accountDid, groupDid, action, undoHoldMs(hold)) }),
    'groups.actMany': async ({ accountDid, groupDid, actions, hold }) => ({ outboxIds: await groups.organizing.actMany(accountDid, groupDid, actions, undoHoldMs(hold)) }),
    'outbox.list': async () => groups.reading.outbox(),
    'outbox.cancel': async ({ accountDid, id }) => {
      await groups.organizing.cancel(accountDid, id)
      return {}
    },
    'outbox.retry': async ({ accountDid, id }) => {
      await groups.organizing.retry(accountDid, id)
      return {}
    },
    'outbox.dismiss': async ({ accountDid, id }) => {
      await groups.organizing.dismiss(accountDid, id)
      return {}
    },
    'sync.now': async () => {
      // A pass already under way may have read the lists before the person asked: let
      // it finish, then read again, so "Sync now" always means now.
      await syncing?.catch(() => {})
      await syncOnce()
      return {}
    },
    'sync.status': async () => groups.syncing.status(),
    'groupSessions.list': async () => (keychain.available ? groupSessions.store.list() : []),
    'groupSessions.signIn': async ({ group }) => {
      requireKeychain()
      return groupSessions.startSignIn(group)
    },
    'groupSessions.awaitSignIn': async ({ attemptId }) => groupSessions.awaitSignIn(attemptId),
    'groupSessions.signOut': async ({ did }) => {
      requireKeychain()
      await groupSessions.signOut(did)
      return {}
    },
    'groupSessions.createEvent': async ({ groupDid, event }) => groupSessions.write(groupDid, (live) => createEventAsGroup(live, event)),
    'groups.door': async ({ accountDid, groupDid, rkey }) => groups.reading.door(accountDid, groupDid, rkey),
    'groups.attendanceHistory': async ({ accountDid, groupDid, did }) => groups.reading.attendanceHistory(accountDid, groupDid, did),
    'today.items': async (query) => (keychain.available ? groups.today.page(query) : { items: [], offset: 0, total: 0, matched: 0, revision: 0, waiting: 0, groups: [], kinds: [] }),
  }
  // Background sync: queued actions go out when the host is back, and what changed
  // while the app was away comes in, without anyone pressing a button.
  const interval = opts.syncIntervalMs ?? 30_000
  const syncInBackground = () => {
    if (!keychain.available || syncing) return
    syncOnce(true).catch((err: unknown) => log.error('sync', 'background sync failed', errorFields(err)))
  }
  const timer = interval > 0 ? setInterval(syncInBackground, interval) : null
  timer?.unref()
  if (interval > 0) setTimeout(syncInBackground, 0).unref()

  updates?.start()
  if (live) groups.live.start()

  const gate = closingGate(handlers)
  return {
    handlers: gate.handlers,
    notices,
    groups,
    async close() {
      if (timer) clearInterval(timer)
      updates?.stop()
      await gate.drain()
      await syncing?.catch(() => {})
      await groups.close()
    },
  }
}
