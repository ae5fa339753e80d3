import type { IdResolver } from '@atproto/identity'
import type { GroupService } from './group-service.js'
import type { Accounts } from '../accounts/accounts.js'
import type { HostAddress } from '../xrpc/host-client.js'
import { hostAddress, resolveGroup } from './resolve-group.js'
import { allPages } from '../xrpc/host-pages.js'
import { errorFields, log } from '../log/log.js'

/** A host that lists more than this for one person is not believed past it. */
const MAX_GROUPS_PER_HOST = 1_000

export interface FindMyGroupsDeps {
  groups: GroupService
  accounts: Accounts
  idResolver: IdResolver
  resolveHandle: (handle: string) => Promise<string | null>
  /** The guarded fetch for group hosts named in DID documents (node/safe-fetch.ts, createPeerFetch). */
  hostFetch: typeof globalThis.fetch
  /** The local network's host, known before any group is added. */
  defaultHostUrl?: string
}

/**
 * The hosts the app knows of: the local network's, and the host of every group any
 * signed-in account has added (one person often uses several hosts, and a host one
 * account met is worth asking for another's groups).
 */
export async function knownHosts(deps: FindMyGroupsDeps): Promise<{ addresses: HostAddress[]; unreachable: string[] }> {
  const byUrl = new Map<string, HostAddress>()
  for (const account of await deps.accounts.store.list()) {
    const rt = await deps.groups.runtime(account.did)
    for (const row of await rt.cache.selectFrom('group_row').select(['hostUrl', 'hostAud']).execute()) byUrl.set(row.hostUrl, { url: row.hostUrl, aud: row.hostAud })
  }
  const unreachable: string[] = []
  if (deps.defaultHostUrl && !byUrl.has(deps.defaultHostUrl.replace(/\/$/, ''))) {
    try {
      const address = await hostAddress(deps.defaultHostUrl, deps.idResolver, deps.hostFetch)
      byUrl.set(address.url, address)
    } catch (err) {
      log.warn('groups', 'the default host could not be asked for your groups', errorFields(err))
      unreachable.push(deps.defaultHostUrl)
    }
  }
  return { addresses: [...byUrl.values()], unreachable }
}

/**
 * Asks every known host which groups the account belongs to (`listMyGroups`) and adds
 * the ones not yet in its list. A host is trusted only for groups it really hosts: each
 * group's own DID document must name that host, so a host cannot fill someone's list
 * with groups of its choosing elsewhere. A host that cannot be reached, or that the
 * sign-in does not cover yet, is skipped and named; the others still count.
 */
export async function findMyGroups(accountDid: string, deps: FindMyGroupsDeps): Promise<{ added: number; unreachableHosts: string[] }> {
  const rt = await deps.groups.runtime(accountDid)
  const { addresses, unreachable } = await knownHosts(deps)
  const have = new Set((await rt.cache.selectFrom('group_row').select('did').execute()).map((r) => r.did))
  let added = 0
  for (const address of addresses) {
    const host = rt.host(address)
    let mine
    try {
      // Checked against the lexicon (validated-call.ts): every group has its did and roles.
      mine = await allPages(async (cursor) => {
        const res = await host.query('example.groups.listMyGroups', { limit: 100, cursor })
        return { items: res.groups, cursor: res.cursor }
      })
    } catch (err) {
      log.warn('groups', 'a host could not list your groups', { host: address.url, ...errorFields(err) })
      unreachable.push(address.url)
      continue
    }
    for (const g of mine.slice(0, MAX_GROUPS_PER_HOST)) {
      if (have.has(g.did) || g.roles.length === 0) continue
      try {
        const resolved = await resolveGroup(g.did, deps)
        if (resolved.host.url !== address.url) {
          log.warn('groups', 'a host listed a group it does not host', { host: address.url, groupDid: g.did })
          continue
        }
        await deps.groups.syncing.addResolved(accountDid, resolved)
        have.add(g.did)
        added++
      } catch (err) {
        log.warn('groups', 'a listed group could not be added', { host: address.url, groupDid: g.did, ...errorFields(err) })
      }
    }
  }
  return { added, unreachableHosts: unreachable }
}
