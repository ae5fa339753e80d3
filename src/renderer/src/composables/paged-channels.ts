import type { ConveneApi } from '../../../shared/ipc/api'
import type { ChannelOutput } from '../../../shared/ipc/contract'
import type { LoadPage, Page } from './paged-rows'

/** The long lists the core hands out a page at a time (see main/core/reading/list-pages.ts). */
export type PagedChannel = 'groups.members' | 'groups.joinRequests' | 'groups.subjects' | 'groups.invites'
export type RowOf<C extends PagedChannel> = ChannelOutput<C>['items'][number]
/** What narrows a list: a search (`q`), a status; empty values are left out. */
export type PageParams = Record<string, string>

/** Rows per page: a few screens, so scrolling rarely waits and little crosses at once. */
export const PAGE_SIZE = 100

const given = (params: PageParams) => Object.fromEntries(Object.entries(params).filter(([, v]) => v !== ''))

/** Names one list: which, of which group, narrowed how. */
export const pagedListKey = (channel: PagedChannel, accountDid: string, groupDid: string, params: PageParams = {}) =>
  JSON.stringify([channel, accountDid, groupDid, given(params)])
/** Whether a key names a search (searches are not remembered: see use-paged-list). */
export const isSearch = (key: string) => Boolean((JSON.parse(key) as [string, string, string, PageParams])[3].q)

/** Loads pages of the list a key names, through the contract. */
export const pageLoader =
  <C extends PagedChannel>(api: ConveneApi, channel: C) =>
  (key: string): LoadPage<RowOf<C>> => {
    const [, accountDid, groupDid, params] = JSON.parse(key) as [C, string, string, PageParams]
    return (offset, limit) => api[channel]({ accountDid, groupDid, offset, limit, ...params } as never) as Promise<Page<RowOf<C>>>
  }
