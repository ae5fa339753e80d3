import type { GroupSummary } from '../../../shared/ipc/views'

/** How a group is named wherever it is shown: its display name, else its handle, else its DID. */
export const groupName = (g: Pick<GroupSummary, 'displayName' | 'handle' | 'did'>) => g.displayName || g.handle || g.did

/** A moment (an ISO timestamp) in the person's own locale and time zone. */
export const formatWhen = (iso: string) => new Date(iso).toLocaleString()
