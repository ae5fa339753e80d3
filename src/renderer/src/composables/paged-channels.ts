import type { ConveneApi } from '../../../shared/ipc/api'
import type { ChannelOutput } from '../../../shared/ipc/contract'
import type { LoadPage, Page } from './paged-rows'

/** The long lists the core hands out a page at a time (see main/core/groups/list-pages.ts). */
export type PagedChannel = 'groups.members' | 'groups.joinRequests'
export type RowOf<C extends PagedChannel> = ChannelOutput<C>['items'][number]

/** Rows per page: a few screens, so scrolling rarely waits and little crosses at once. */
export const PAGE_SIZE = 100

/** Names one list: which, of which group, searched for what. */
export const pagedListKey = (channel: PagedChannel, accountDid: string, groupDid: string, q: string) => JSON.stringify([channel, accountDid, groupDid, q])
export const isSearch = (key: string) => (JSON.parse(key) as string[])[3] !== ''

/** Loads pages of the list a key names, through the contract. */
export const pageLoader =
  <C extends PagedChannel>(api: ConveneApi, channel: C) =>
  (key: string): LoadPage<RowOf<C>> => {
    const [, accountDid, groupDid, q] = JSON.parse(key) as [C, string, string, string]
    return (offset, limit) => api[channel]({ accountDid, groupDid, offset, limit, ...(q ? { q } : {}) }) as Promise<Page<RowOf<C>>>
  }
