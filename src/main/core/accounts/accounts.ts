import type { OAuthSession } from '@atproto/oauth-client'
import type { Account } from '../../../shared/ipc/contract.js'
import { UserFacingError } from '../ipc/errors.js'
import type { SecretStore } from '../secrets/secret-store.js'
import { AccountStore } from './account-store.js'
import { openLoopbackRedirect } from './loopback-redirect.js'
import { createOAuthClient, type IdentityNetwork } from './oauth-client.js'
import { undeclaredScopes } from './client-identity.js'
import { keychainSessionStore, memoryStateStore } from './session-store.js'
import { SignInAttempts } from './sign-in-attempts.js'
import { errorFields, log } from '../log/log.js'

/**
 * Accounts and their OAuth sessions: sign-in through the person's own PDS pages (the
 * app never sees a password), restore, sign-out. Sessions and DPoP keys go only to
 * the keychain.
 */
export class Accounts {
  readonly store: AccountStore
  private readonly attempts = new SignInAttempts<Account>()
  private readonly stateStore = memoryStateStore()
  private readonly sessionStore
  /** Restores sessions and refreshes tokens; its redirect is never used. */
  private readonly restorer

  constructor(
    private readonly opts: {
      secrets: SecretStore
      network: IdentityNetwork
      scope: string
      /** Opens the authorization page in the system browser (Electron); absent in the loopback shell. */
      openUrl?: (url: string) => Promise<void>
      /** Told when an account's session ended (the oauth-client deleted it), so the window can say it needs sign-in. */
      onSessionLost?: (did: string) => void
    },
  ) {
    this.store = new AccountStore(opts.secrets)
    // The oauth-client deletes a session exactly when it ends (refresh refused, revoked):
    // that, not every failed restore (offline, say), is what the window is told.
    this.sessionStore = keychainSessionStore(opts.secrets, opts.onSessionLost)
    this.restorer = createOAuthClient({ network: opts.network, scope: opts.scope, sessionStore: this.sessionStore, stateStore: this.stateStore })
  }

  /** Starts a sign-in; the person completes it on their PDS's own pages. */
  async startSignIn(handle: string, extraScopes: string[] = []): Promise<{ attemptId: string; authorizeUrl: string; openedExternally: boolean }> {
    const input = handle.trim().replace(/^@/, '').toLowerCase()
    // A ScopeMissingError names a scope to add; the loopback client declares whatever it
    // asks for in its client_id, so each attempt gets a client with exactly that scope.
    const scope = [...new Set([...this.opts.scope.split(' '), ...extraScopes])].join(' ')
    const redirect = await openLoopbackRedirect()
    const client = createOAuthClient({ ...this.opts, scope, port: redirect.port, sessionStore: this.sessionStore, stateStore: this.stateStore })
    const undeclared = undeclaredScopes(client.clientMetadata, scope)
    if (undeclared.length) {
      redirect.close()
      log.warn('accounts', 'scope not declared by the client', { clientId: client.clientMetadata.client_id, undeclared })
      throw new UserFacingError('ScopeNotDeclared', 'This version of Convene cannot ask your server for the permission this group needs. Update Convene, or ask its makers to add it.')
    }
    let url: URL
    try {
      url = await client.authorize(input, { scope })
    } catch (err) {
      redirect.close()
      throw new UserFacingError('HandleNotFound', `Could not find the account "${input}" or its server. Check the handle and your connection. (${(err as Error).message})`)
    }
    const attemptId = this.attempts.start(redirect, async (params) => {
      if (params.get('error')) {
        throw new UserFacingError('SignInDenied', params.get('error') === 'access_denied' ? 'Sign-in was cancelled on your server’s page.' : `Your server refused the sign-in: ${params.get('error_description') ?? params.get('error')}`)
      }
      const { session } = await client.callback(params)
      // The PDS may grant less than asked (dropped or refused scopes): keep what it granted.
      const { scope: granted } = await session.getTokenInfo()
      await this.store.put({ did: session.did, handle: input, scope: granted })
      log.info('accounts', 'signed in', { did: session.did, clientId: client.clientMetadata.client_id, grantedScope: granted })
      return (await this.store.get(session.did))!
    })
    const openedExternally = !!this.opts.openUrl
    // The page's address carries a request_uri, which the log censors.
    log.info('accounts', 'sign-in started', { handle: input, authorizeUrl: url.toString() })
    if (this.opts.openUrl) await this.opts.openUrl(url.toString())
    return { attemptId, authorizeUrl: url.toString(), openedExternally }
  }

  /** Resolves when the person finishes (or refuses) the sign-in on their PDS. */
  async awaitSignIn(attemptId: string): Promise<Account> {
    return this.attempts.result(attemptId)
  }

  /** The account's live session; asks the person to sign in again when it is gone. */
  async session(did: string): Promise<OAuthSession> {
    try {
      return await this.restorer.restore(did, 'auto')
    } catch (err) {
      log.error('accounts', 'session restore failed', { did, ...errorFields(err) })
      throw new UserFacingError('SignInRequired', 'Your sign-in for this account has ended. Sign in again; anything waiting to be sent is kept.')
    }
  }

  /** Revokes the tokens at the PDS (best effort) and forgets the account. */
  async signOut(did: string): Promise<void> {
    await this.restorer.revoke(did).catch((err: unknown) => log.warn('accounts', 'revoke failed', { did, ...errorFields(err) }))
    await this.opts.secrets.delete(`session:${did}`)
    await this.store.remove(did)
    log.info('accounts', 'signed out', { did })
  }
}
