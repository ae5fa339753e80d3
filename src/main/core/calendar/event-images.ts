import type { HostClient } from '../xrpc/host-client.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { allPages } from '../groups/host-pages.js'
import { log } from '../log/log.js'
import { calendarSpace, EVENT_COLLECTION, EVENT_IMAGE_COLLECTION } from './calendar-space.js'

/** An event's image as the window shows it: a data: URL (the window never calls a host) and its description. */
export interface EventImage {
  url: string
  alt: string
  /** The blob's CID: an unchanged image is not fetched again at the next sync. */
  cid: string
}

/** The largest image kept (the host's own limit): anything larger is not shown. */
const MAX_IMAGE_BYTES = 1_000_000

/** The image type the bytes are (never what a host says): only these four are shown. */
export function imageType(bytes: Uint8Array): string | null {
  const starts = (...b: number[]) => b.every((v, i) => bytes[i] === v)
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png'
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif'
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp'
  return null
}

/** The event rkey an image record names (`event`: the event's at-uri, `at://<group>/<event collection>/<rkey>`), if it is this group's. */
export function eventOfImage(groupDid: string, event: unknown): string | null {
  if (typeof event !== 'string') return null
  const parts = event.split('/')
  return parts.length >= 3 && parts[2] === groupDid && parts[parts.length - 2] === EVENT_COLLECTION ? (parts[parts.length - 1] ?? null) || null : null
}

/**
 * Every event's image in the group's calendar space (`example.groups.eventImage`, written
 * as the group), by event rkey: the newest record naming an event wins. The bytes come
 * from the host with service auth (getSpaceBlob) and are kept as a data: URL; an image
 * whose CID `known` already holds is not fetched again. Images are a nicety: a host or
 * a role that does not serve them leaves events without, and the sync goes on.
 */
export async function fetchEventImages(host: HostClient, groupDid: string, known: ReadonlyMap<string, EventImage>): Promise<Map<string, EventImage>> {
  const space = calendarSpace(groupDid)
  let records
  try {
    records = await allPages(async (cursor) => {
      const res = await host.query('com.atproto.space.listRecords', { space, repo: groupDid, collection: EVENT_IMAGE_COLLECTION, limit: 100, cursor })
      return { items: res.records.filter((r) => !r.takenDown), cursor: res.cursor }
    })
  } catch (err) {
    if (err instanceof XrpcCallError || (err as { code?: unknown }).code === 'ScopeMissingError') return new Map()
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
  const byCid = new Map([...known.values()].map((i) => [i.cid, i.url]))
  const out = new Map<string, EventImage>()
  for (const [rkey, { cid, alt }] of newest) {
    const url = byCid.get(cid) ?? (await fetchImage(host, space, cid))
    if (url) out.set(rkey, { url, alt, cid })
  }
  return out
}

async function fetchImage(host: HostClient, space: string, cid: string): Promise<string | null> {
  try {
    const body = await host.query('example.groups.getSpaceBlob', { space, cid })
    const bytes = body instanceof Uint8Array ? body : null
    const type = bytes && bytes.length <= MAX_IMAGE_BYTES ? imageType(bytes) : null
    return type ? `data:${type};base64,${Buffer.from(bytes!).toString('base64')}` : null
  } catch (err) {
    log.warn('calendar', 'an event image could not be read', { cid, error: (err as Error).message })
    return null
  }
}
