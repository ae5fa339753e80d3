import type { MemberItem } from '../../../shared/ipc/views'
import type { ConveneApi } from '../../../shared/ipc/api'
import type { LoadPage } from './paged-rows'

/** The members list of a group, as the paged list names it (group and search). */
export const memberListKey = (accountDid: string, groupDid: string, q: string) => JSON.stringify([accountDid, groupDid, q])

/** Loads pages of the list a key names, through the contract. */
export const memberPages =
  (api: ConveneApi) =>
  (key: string): LoadPage<MemberItem> => {
    const [accountDid, groupDid, q] = JSON.parse(key) as [string, string, string]
    return (offset, limit) => api['groups.members']({ accountDid, groupDid, offset, limit, ...(q ? { q } : {}) })
  }

export const MEMBER_PAGE_SIZE = 100
