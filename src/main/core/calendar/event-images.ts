import type { HostClient } from '../xrpc/host-client.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { allPages } from '../xrpc/host-pages.js'
import { log } from '../log/log.js'
import { imageTypeOf } from '@shared/image-type.js'
import { calendarSpace, EVENT_COLLECTION, EVENT_IMAGE_COLLECTION } from './calendar-space.js'

/**
 * An event's image as its cached row keeps it: which blob, its description, and whether
 * the bytes are held (in the event_image table, calendar/event-image-cache.ts). The bytes
 * never ride on the row: the window asks for them by CID (`groups.eventImage`).
 */
export interface EventImage {
  /** The blob's CID, or `pending:<outbox id>` for a picture chosen here and not yet sent. */
  cid: string
  alt: string
  held: boolean
}

/** The largest image kept (the host's own limit): anything larger is not shown. */
const MAX_IMAGE_BYTES = 1_000_000


/** The event rkey an image record names (`event`: the event's at-uri, `at://<group>/<event collection>/<rkey>`), if it is this group's. */
export function eventOfImage(groupDid: string, event: unknown): string | null {
  if (typeof event !== 'string') return null
  const parts = event.split('/')
  return parts.length >= 3 && parts[2] === groupDid && parts[parts.length - 2] === EVENT_COLLECTION ? (parts[parts.length - 1] ?? null) || null : null
}

/** What a sync reads of the group's images: each event's image, and the bytes newly fetched by CID. */
export interface FetchedImages {
  images: Map<string, EventImage>
  /** Bytes fetched this time, as data: URLs, by CID (to be kept in event_image). */
  fetched: Map<string, string>
}

/**
 * Every event's image in the group's calendar space (`example.groups.eventImage`, written
 * as the group), by event rkey: the newest record naming an event wins. The bytes come
 * from the host with service auth (getSpaceBlob) only for CIDs `held` does not already
 * hold. Images are a nicety: a host or a role that does not serve them leaves events
 * without, and the sync goes on; one whose bytes could not be read is marked not held.
 */
export async function fetchEventImages(host: HostClient, groupDid: string, held: ReadonlySet<string>): Promise<FetchedImages> {
  const space = calendarSpace(groupDid)
  const images = new Map<string, EventImage>()
  const fetched = new Map<string, string>()
  let records
  try {
    records = await allPages(async (cursor) => {
      const res = await host.query('com.atproto.space.listRecords', { space, repo: groupDid, collection: EVENT_IMAGE_COLLECTION, limit: 100, cursor })
      return { items: res.records.filter((r) => !r.takenDown), cursor: res.cursor }
    })
  } catch (err) {
    if (err instanceof XrpcCallError || (err as { code?: unknown }).code === 'ScopeMissingError') return { images, fetched }
    throw err
  }
  const newest = new Map<string, { cid: string; alt: string; createdAt: string }>()
  for (const r of records) {
    const v = r.value as { event?: unknown; image?: { ref?: { $link?: unknown } | { toString(): string } }; alt?: unknown; createdAt?: unknown }
    const rkey = eventOfImage(groupDid, v.event)
    const ref = v.image?.ref
    const cid = ref && typeof (ref as { $link?: unknown }).$link === 'string' ? ((ref as { $link: string }).$link) : ref ? String(ref) : null
    if (!rkey || !cid) continue
    const createdAt = typeof v.createdAt === 'string' ? v.createdAt : ''
    const was = newest.get(rkey)
    if (!was || createdAt > was.createdAt) newest.set(rkey, { cid, alt: typeof v.alt === 'string' ? v.alt : '', createdAt })
  }
  for (const [rkey, { cid, alt }] of newest) {
    if (!held.has(cid) && !fetched.has(cid)) {
      const url = await fetchImage(host, space, cid)
      if (url) fetched.set(cid, url)
    }
    images.set(rkey, { cid, alt, held: held.has(cid) || fetched.has(cid) })
  }
  return { images, fetched }
}

async function fetchImage(host: HostClient, space: string, cid: string): Promise<string | null> {
  try {
    const body = await host.query('example.groups.getSpaceBlob', { space, cid })
    const bytes = body instanceof Uint8Array ? body : null
    const type = bytes && bytes.length <= MAX_IMAGE_BYTES ? imageTypeOf(bytes) : null
    return type ? `data:${type};base64,${Buffer.from(bytes!).toString('base64')}` : null
  } catch (err) {
    log.warn('calendar', 'an event image could not be read', { cid, error: (err as Error).message })
    return null
  }
}
