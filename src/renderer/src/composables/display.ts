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

/** The noun for a count: `one` for exactly 1, else `many`. */
export const nounFor = (n: number, one: string, many: string) => (n === 1 ? one : many)

/** A count in words, in the person's locale: "1 open report", "1,204 open reports". */
export const countOf = (n: number, one: string, many: string) => `${n.toLocaleString()} ${nounFor(n, one, many)}`
