import { knownProfiles } from '../people/profile-cache.js'
import { knownHandles } from '../people/list-handles.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import type { SubjectDetail } from '../../../shared/ipc/views.js'
import { readItem, readItems, readItemsByKey } from '../cache/items.js'
import { EVENT_COLLECTION, LEGACY_RSVP_COLLECTION, RSVP_COLLECTION } from '../calendar/calendar-space.js'
import { eventFromRecord, rsvpStatus } from '../calendar/event-record.js'
import { placeInWords } from '../../../shared/event-places.js'
import { isSubjectAccount, isSubjectRecord, type SubjectAccount, type SubjectRecord } from '@node/lexicon/types/example/groups/defs.js'
import type { $Typed } from '@node/lexicon/util.js'
import { parseRecordAddress } from '../../../shared/space-address.js'

/** Pages of 100 read for one pane: a thousand reports and entries, past any real case. */
const MAX_PAGES = 10

const text = (v: unknown) => (typeof v === 'string' ? v : null)

/** A value a person can read: strings as they are, the rest as compact JSON. */
const readable = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))

/**
 * The reported thing as members saw it: a calendar event by its name and time, an RSVP
 * by its answer and event, an account by handle and roles, a post (any record with a
 * `text`) by its words; anything else as readable fields. The host's copy is read live (getSubject), so a moderator sees what was
 * served, taken down or not.
 */
function shownRecord(uri: string, record: Record<string, unknown> | undefined, withheld: boolean): SubjectDetail['shown'] {
  if (withheld) return { kind: 'withheld', uri }
  if (!record) return { kind: 'unavailable', uri }
  const address = parseRecordAddress(uri)
  const collection = address?.collection ?? text(record.$type) ?? ''
  if (collection === EVENT_COLLECTION) {
    return {
      kind: 'event',
      name: text(record.name) ?? '(unnamed event)',
      startsAt: text(record.startsAt),
      endsAt: text(record.endsAt),
      location: placesInWords(record) ?? null,
      description: text(record.description),
    }
  }
  if (collection === RSVP_COLLECTION || collection === LEGACY_RSVP_COLLECTION) {
    const subject = record.subject as { uri?: string } | string | undefined
    return { kind: 'rsvp', status: rsvpStatus(record.status) ?? text(record.status) ?? '', event: typeof subject === 'string' ? subject : text(subject?.uri), by: address?.repo ?? '' }
  }
  const fields = (skip: string[]) =>
    Object.entries(record)
      .filter(([k]) => k !== '$type' && !skip.includes(k))
      .map(([label, value]) => ({ label, value: readable(value).slice(0, 2000) }))
  // A post of any collection (app.bsky.feed.post and its like): its words first.
  const words = text(record.text)
  if (words !== null) return { kind: 'post', text: words.slice(0, 3000), createdAt: text(record.createdAt), author: address?.repo ?? '', fields: fields(['text', 'createdAt']) }
  return { kind: 'fields', fields: fields([]) }
}

/**
 * One subject for the moderator's detail pane: asked of the host each time it opens
 * (reports and history are not cached: they are read rarely and matter fresh), with
 * handles filled in from the cached member list.
 */
export async function subjectDetail(rt: AccountRuntime, groupDid: string, key: string): Promise<SubjectDetail> {
  const host = await rt.hostOf(groupDid)
  const page = await host.query('example.groups.getSubject', { group: groupDid, subject: key, limit: 100 })
  // Older reports and history follow the first page (the first ones made are often what
  // matters); a subject past MAX_PAGES pages says so rather than reading on.
  let cursor = page.cursor
  for (let i = 1; cursor && i < MAX_PAGES; i++) {
    const older = await host.query('example.groups.getSubject', { group: groupDid, subject: key, limit: 100, cursor })
    page.reports.push(...older.reports)
    page.history.push(...older.history)
    cursor = older.cursor === cursor ? undefined : older.cursor
  }
  const people = [
    ...new Set([...page.reports.map((r) => r.reportedBy), ...page.history.flatMap((h) => [h.createdBy, h.assignedTo]), page.subject.assignedTo?.did, page.subject.pinned?.by, key.startsWith('did:') ? key : undefined]),
  ].filter(
    (d): d is string => !!d,
  )
  const members = await readItemsByKey<{ did: string; handle: string | null; roles: string[] }>(rt.cache, groupDid, 'member', people)
  // A former member (a moderator who left, say) by the handle last verified for them, not by DID alone.
  const verified = await knownHandles(rt.cache, people)
  const handleOf = (did: string | undefined) => (did ? (members.find((m) => m.did === did)?.handle ?? verified.get(did) ?? null) : null)
  // Names and faces as last read after a sync (people/profile-cache.ts): the pane asks no PDS itself.
  const profiles = await knownProfiles(rt.cache, [...people, ...(key.startsWith('did:') ? [key] : [])])
  const nameOf = (did: string | undefined) => (did ? (profiles.get(did)?.displayName ?? null) : null)

  let shown: SubjectDetail['shown']
  if (key.startsWith('did:')) {
    const member = members.find((m) => m.did === key)
    const cached = await readItem<{ handle: string | null }>(rt.cache, groupDid, 'subject', key)
    shown = { kind: 'account', did: key, handle: member?.handle ?? cached?.handle ?? null, displayName: nameOf(key), avatar: profiles.get(key)?.avatar ?? null, roles: member?.roles ?? [], member: !!member }
  } else {
    shown = shownRecord(key, page.record, page.recordWithheld === true)
  }
  // The account's records reported in this group, and earlier reports are in the history.
  const earlierSubjects = key.startsWith('did:')
    ? (await readItems<{ key: string; status: string; reportCount: number }>(rt.cache, groupDid, 'subject'))
        .filter((s) => s.key !== key && parseRecordAddress(s.key)?.repo === key)
        .map((s) => ({ key: s.key, status: s.status, reportCount: s.reportCount }))
    : []

  return {
    key,
    subject: knownSubject(page.subject.subject, key),
    status: page.subject.status,
    reportCount: page.subject.reportCount,
    takenDown: page.subject.takenDown ?? false,
    shown,
    reports: page.reports.map((r) => ({ reasonType: r.reasonType, reason: r.reason ?? null, reportedBy: r.reportedBy ?? null, reportedByHandle: handleOf(r.reportedBy), reportedByName: nameOf(r.reportedBy), createdAt: r.createdAt })),
    history: page.history.map((h) => ({
      event: h.event,
      note: h.note ?? null,
      status: h.status ?? null,
      reasonType: h.reasonType ?? null,
      reason: h.reason ?? null,
      ban: h.ban ?? false,
      createdBy: h.createdBy ?? null,
      createdByHandle: handleOf(h.createdBy),
      createdByName: nameOf(h.createdBy),
      createdAt: h.createdAt,
      assignedTo: h.assignedTo ?? null,
      assignedToHandle: handleOf(h.assignedTo),
      assignedToName: nameOf(h.assignedTo),
      endAt: h.endAt ?? null,
    })),
    earlierSubjects,
    olderOnHost: !!cursor,
    assignedTo: page.subject.assignedTo ? { did: page.subject.assignedTo.did, handle: handleOf(page.subject.assignedTo.did), endAt: page.subject.assignedTo.endAt } : null,
    pinned: page.subject.pinned ? { did: page.subject.pinned.by, handle: handleOf(page.subject.pinned.by), at: page.subject.pinned.at } : null,
  }
}

/** The lexicon's subject union is open: a kind this app does not know is shown by its key. */
function knownSubject(subject: $Typed<SubjectAccount> | $Typed<SubjectRecord> | { $type: string }, key: string): { did: string } | { uri: string; cid?: string } {
  if (isSubjectAccount(subject)) return { did: subject.did }
  if (isSubjectRecord(subject)) return { uri: subject.uri, ...(subject.cid ? { cid: subject.cid } : {}) }
  return key.startsWith('did:') ? { did: key } : { uri: key }
}

/** Every place an event names, in words (the free text Convene wrote before, too), or undefined when none. */
function placesInWords(record: Record<string, unknown>): string | undefined {
  const e = eventFromRecord(record)
  const words = [...(e.location ? [e.location] : []), ...e.locations.map(placeInWords)]
  return words.length ? words.join('; ') : undefined
}
