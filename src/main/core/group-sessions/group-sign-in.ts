import type { IdResolver } from '@atproto/identity'
import type { OAuthSession } from '@atproto/oauth-client'
import type { GroupSession } from '../../../shared/ipc/contract.js'
import { groupSessionScope } from '../../../shared/group-scope.js'
import { UserFacingError } from '../ipc/errors.js'
import type { SecretStore } from '../secrets/secret-store.js'
import { openLoopbackRedirect } from '../accounts/loopback-redirect.js'
import { createOAuthClient, type IdentityNetwork } from '../accounts/oauth-client.js'
import { undeclaredAtGroupHost } from '../../../shared/declared-scopes.js'
import { keychainSessionStore, memoryStateStore } from '../accounts/session-store.js'
import { SignInAttempts } from '../accounts/sign-in-attempts.js'
import { resolveGroup } from '../groups/resolve-group.js'
import { errorFields, log } from '../log/log.js'
import { GroupSessionStore, groupSessionKey } from './group-session-store.js'


/**
 * "Act as a group" (spec section 5): an ordinary OAuth sign-in with the group's DID as
 * the login hint. The group's DID document names its host as its server, so the host is
 * the authorization server; on its pages the person signs in with their own account and
 * consents. The session's subject is the group; what it may do is the scope the host
 * granted (narrowed to the person's roles), read from the token info, never assumed.
 * Sessions and their DPoP keys go only to the keychain, as accounts' do.
 */
export class GroupSessions {
  readonly store: GroupSessionStore
  private readonly attempts = new SignInAttempts<GroupSession>()
  private readonly stateStore = memoryStateStore()
  private readonly sessionStore
  /** Per group: restores its session, refreshes and revokes its tokens (its redirect is never used). */
  private readonly restorers = new Map<string, ReturnType<typeof createOAuthClient>>()

  constructor(
    private readonly opts: {
      secrets: SecretStore
      network: IdentityNetwork
      idResolver: IdResolver
      resolveHandle: (handle: string) => Promise<string | null>
      /** The guarded fetch for group hosts named in DID documents (node/safe-fetch.ts, createPeerFetch). */
      hostFetch: typeof globalThis.fetch
      openUrl?: (url: string) => Promise<void>
    },
  ) {
    this.store = new GroupSessionStore(opts.secrets)
    this.sessionStore = keychainSessionStore(opts.secrets, undefined, groupSessionKey)
  }

  /**
   * The client a group's session was made by. The development client's id carries its
   * scope, which names the group, so each group has its own; the host refuses a refresh
   * or a revocation from any other client id (a revocation silently, as RFC 7009 says).
   */
  private restorer(did: string) {
    let client = this.restorers.get(did)
    if (!client) {
      client = createOAuthClient({ network: this.opts.network, scope: groupSessionScope(did), sessionStore: this.sessionStore, stateStore: this.stateStore })
      this.restorers.set(did, client)
    }
    return client
  }

  /** Starts a sign-in as the group named by `ref` (handle or DID); the person finishes it on the host's pages. */
  async startSignIn(ref: string): Promise<{ attemptId: string; authorizeUrl: string; openedExternally: boolean }> {
    const group = await resolveGroup(ref, this.opts)
    // resolveGroup keeps the handle only when it resolves back to the group (decision 6.3).
    const handle = group.handle
    const scope = groupSessionScope(group.did)
    const redirect = await openLoopbackRedirect()
    const client = createOAuthClient({ network: this.opts.network, scope, port: redirect.port, sessionStore: this.sessionStore, stateStore: this.stateStore })
    // The host reads a published client's group-agnostic scopes as covering this group's.
    if (undeclaredAtGroupHost(client.clientMetadata.scope ?? '', scope).length) {
      redirect.close()
      log.warn('group-sessions', 'scope not declared by the client', { clientId: client.clientMetadata.client_id, scope })
      throw new UserFacingError('ScopeNotDeclared', 'This version of Convene cannot ask to act as a group. Update Convene, or ask its makers to add it.')
    }
    let url: URL
    try {
      url = await client.authorize(group.did, { scope })
    } catch (err) {
      redirect.close()
      log.warn('group-sessions', 'authorize failed', { group: group.did, hostUrl: group.host.url, ...errorFields(err) })
      throw new UserFacingError('GroupSignInUnavailable', `The host of ${handle ?? group.did} does not offer signing in as the group, or cannot be reached right now.`)
    }
    const attemptId = this.attempts.start(redirect, async (params) => {
      const error = params.get('error')
      if (error) {
        throw new UserFacingError(
          'SignInDenied',
          error === 'access_denied' ? 'Acting as the group was cancelled on the host’s page.' : `The group’s host refused: ${params.get('error_description') ?? error}`,
        )
      }
      const { session } = await client.callback(params)
      if (session.did !== group.did) {
        // The oauth-client checked the issuer against the subject's own document; a
        // session for someone else than the group asked for is still not this group's.
        await session.signOut().catch(() => {})
        throw new UserFacingError('SignInDenied', 'The host signed you in as someone other than the group. Nothing was kept.')
      }
      const { scope: granted } = await session.getTokenInfo()
      await this.store.put({ did: group.did, handle, hostUrl: group.host.url, scope: granted })
      log.info('group-sessions', 'acting as a group', { group: group.did, grantedScope: granted })
      return (await this.store.get(group.did))!
    })
    log.info('group-sessions', 'sign-in started', { group: group.did, authorizeUrl: url.toString() })
    if (this.opts.openUrl) await this.opts.openUrl(url.toString())
    return { attemptId, authorizeUrl: url.toString(), openedExternally: !!this.opts.openUrl }
  }

  async awaitSignIn(attemptId: string): Promise<GroupSession> {
    return this.attempts.result(attemptId)
  }

  /**
   * The group's live session, with the scope its current token carries: the host
   * re-checks the person's roles at each refresh, so the grant can shrink; the list
   * is kept in step with it.
   */
  async session(did: string): Promise<{ session: OAuthSession; scope: string }> {
    let session: OAuthSession
    try {
      session = await this.restorer(did).restore(did, 'auto')
    } catch (err) {
      log.warn('group-sessions', 'session restore failed', { group: did, ...errorFields(err) })
      throw new UserFacingError('SignInRequired', 'Your sign-in as this group has ended. Act as the group again to continue.')
    }
    const { scope } = await session.getTokenInfo()
    await this.store.updateScope(did, scope)
    return { session, scope }
  }

  /**
   * Runs a write as the group. When the host refuses it (the person's roles changed since
   * the token was issued), the token is refreshed at once, so the host re-checks the roles
   * and the list shows what the session may still do, or that it ended.
   */
  async write<T>(did: string, run: (live: { session: OAuthSession; scope: string }) => Promise<T>): Promise<T> {
    try {
      return await run(await this.session(did))
    } catch (err) {
      if (err instanceof UserFacingError && err.code === 'NotGranted') await this.recheck(did)
      throw err
    }
  }

  private async recheck(did: string): Promise<void> {
    try {
      const live = await this.restorer(did).restore(did, true)
      await this.store.updateScope(did, (await live.getTokenInfo(false)).scope)
    } catch (err) {
      // A refused refresh deletes the session (the oauth-client's store `del`): it now reads as needing sign-in.
      log.info('group-sessions', 'session ended at the host', { group: did, ...errorFields(err) })
    }
  }

  /** Revokes the session at the group's host, then forgets it (even if the host could not be reached). */
  async signOut(did: string): Promise<void> {
    await this.restorer(did).revoke(did).catch((err: unknown) => log.warn('group-sessions', 'revoke failed', { group: did, ...errorFields(err) }))
    await this.opts.secrets.delete(groupSessionKey(did))
    await this.store.remove(did)
    log.info('group-sessions', 'stopped acting as a group', { group: did })
  }
}
