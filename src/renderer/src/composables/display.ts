import type { GroupSummary } from '../../../shared/ipc/views'

/** How a group is named wherever it is shown: its display name, else its handle, else its DID. */
export const groupName = (g: Pick<GroupSummary, 'displayName' | 'handle' | 'did'>) => g.displayName || g.handle || g.did

/** A moment (an ISO timestamp) in the person's own locale and time zone. */
export const formatWhen = (iso: string) => new Date(iso).toLocaleString()

/**
 * How controls and dialogs name a person or post: by its DID or address, which is unique
 * and is what a screen reader user can check against the host, with the handle alongside
 * once one has been looked up and verified.
 */
export const personLabel = (id: string, handle?: string | null) => (handle ? `${id} (@${handle})` : id)
