import path from 'node:path'
import type { Accounts } from '../accounts/accounts.js'
import type { CacheDb } from '../cache/cache-db.js'
import { UserFacingError } from '../ipc/errors.js'
import type { NoticeHub } from '../ipc/notices.js'
import { AccountRuntime } from '../session/account-runtime.js'
import { actionHandlers } from '../queue/organizer-actions.js'
import type { WalkInResolver } from '../people/walk-in-lookup.js'

/** Each signed-in account's runtime (its cache, outbox and tokens), opened on first use. */
export class AccountRuntimes {
  private readonly open = new Map<string, Promise<AccountRuntime>>()

  constructor(private readonly opts: { accounts: Accounts; hostCalls: typeof globalThis.fetch; dataDir: string; notices?: NoticeHub; walkIns?: WalkInResolver }) {}

  get(accountDid: string): Promise<AccountRuntime> {
    let rt = this.open.get(accountDid)
    if (!rt) {
      rt = AccountRuntime.open({
        did: accountDid,
        accounts: this.opts.accounts,
        hostCalls: this.opts.hostCalls,
        cacheDir: path.join(this.opts.dataDir, 'cache'),
        actions: actionHandlers,
        walkIns: this.opts.walkIns,
        onOutboxChange: (ids) => this.opts.notices?.emit('outbox.changed', { accountDid, ids }),
      })
      this.open.set(accountDid, rt)
    }
    return rt
  }

  /** The runtime of an account on this computer; another DID (the window is not trusted) is refused, with no cache opened for it. */
  async ofKnown(accountDid: string): Promise<AccountRuntime> {
    const known = (await this.opts.accounts.store.list()).some((a) => a.did === accountDid)
    if (!known) throw new UserFacingError('AccountNotFound', 'That account is not signed in on this computer.')
    return this.get(accountDid)
  }

  /** The account's runtime if it is open already (a notice about a signed-out account opens none). */
  opened(accountDid: string): Promise<AccountRuntime> | undefined {
    return this.open.get(accountDid)
  }

  /** The runtime of every signed-in account, in the account list's order. */
  async all(): Promise<AccountRuntime[]> {
    const out: AccountRuntime[] = []
    for (const account of await this.opts.accounts.store.list()) out.push(await this.get(account.did))
    return out
  }

  /** The account's cache, once the group is known to be in its list. */
  async cacheOf(accountDid: string, groupDid: string): Promise<CacheDb> {
    const rt = await this.get(accountDid)
    const exists = await rt.cache.selectFrom('group_row').select('did').where('did', '=', groupDid).executeTakeFirst()
    if (!exists) throw new UserFacingError('GroupNotAdded', 'That group is not in this account’s list.')
    return rt.cache
  }

  async close(): Promise<void> {
    for (const rt of this.open.values()) await (await rt).close()
  }
}
