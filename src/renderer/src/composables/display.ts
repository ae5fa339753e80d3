import type { GroupSummary } from '../../../shared/ipc/views'

/** How a group is named wherever it is shown: its display name, else its handle, else its DID. */
export const groupName = (g: Pick<GroupSummary, 'displayName' | 'handle' | 'did'>) => g.displayName || g.handle || g.did

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const TODAY = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' })

/**
 * A moment (an ISO timestamp) in the person's own locale and time zone, as people write
 * it: "Nov 29, 2026, 11:30 PM", or "today, 11:30 PM" (never seconds, never 11/29/2026).
 */
export function formatWhen(iso: string): string {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return iso
  return at.toDateString() === new Date().toDateString() ? `today, ${TODAY.format(at)}` : WHEN.format(at)
}

/**
 * How controls and dialogs name a person or post: by its DID or address, which is unique
 * and is what a screen reader user can check against the host, with the handle alongside
 * once one has been looked up and verified.
 */
export const personLabel = (id: string, handle?: string | null) => (handle ? `${id} (@${handle})` : id)

/** Up to two letters standing in for a person without an avatar. */
export const initialsOf = (name: string) =>
  name
    .replace(/^@/, '')
    .split(/[\s.\-_]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('') || '?'

/**
 * How titles and dialogs name a person in words: their display name with their handle,
 * or the handle alone; "you" for oneself; never the DID, which nobody can check by eye.
 */
export const personName = (p: { did: string; handle?: string | null; displayName?: string | null }, me?: string) => {
  if (me && p.did === me) return 'you'
  if (p.displayName && p.handle) return `${p.displayName} (@${p.handle})`
  if (p.displayName) return p.displayName
  if (p.handle) return `@${p.handle}`
  return 'an account not looked up yet'
}

/** A reported record in plain words: a calendar event by its name and start, else what kind of thing it is. */
export const recordName = (uri: string, record?: { name: string; startsAt: string | null } | null) => {
  if (record) return record.startsAt ? `the event “${record.name}” on ${formatWhen(record.startsAt)}` : `the event “${record.name}”`
  const collection = uri.split('/').at(-2) ?? ''
  if (collection === 'community.lexicon.calendar.event') return 'a calendar event'
  if (collection.endsWith('.rsvp')) return 'an RSVP'
  return 'a post or record'
}

/** The noun for a count: `one` for exactly 1, else `many`. */
export const nounFor = (n: number, one: string, many: string) => (n === 1 ? one : many)

/** A count in words, in the person's locale: "1 open report", "1,204 open reports". */
export const countOf = (n: number, one: string, many: string) => `${n.toLocaleString()} ${nounFor(n, one, many)}`
