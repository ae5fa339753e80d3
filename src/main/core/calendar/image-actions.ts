import { spaceRecordAddress } from '@shared/space-address.js'
import { putItem, readItem } from '../cache/items.js'
import type { ActionPayloads, ActionTable } from '../actions/action-spec.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { calendarSpace, ensureCalendarSpace, EVENT_IMAGE_COLLECTION, eventAddress } from './calendar-space.js'
import { keepEventImages, pendingImageKey } from './event-image-cache.js'

/** The image record's address, as the change log names it: beside its event, at the event's rkey (both TIDs). */
export const imageAddress = (groupDid: string, rkey: string) => spaceRecordAddress(calendarSpace(groupDid), groupDid, EVENT_IMAGE_COLLECTION, rkey)

/**
 * An event's image (issue 27 point 4), as the group: the spec's `example.groups.eventImage`
 * record in the calendar space, at the event's own rkey so choosing again replaces it and
 * removing deletes it. The picture goes up first, with the same calendar-space group
 * credential (uploadSpaceBlob), so only the space's readers are ever served it; an upload
 * the record never names is the host's to drop. The cached event shows it at once (its bytes
 * kept under a provisional key until the host's copy is read at the next sync).
 */
type ImagePayload = ActionPayloads['event.image']
type Tx = Parameters<ActionTable<'event.image'>['event.image']['applyToCache']>[0]
type Runtime = Parameters<ActionTable<'event.image'>['event.image']['send']>[0]

/** The event's image shown at once in the cache: the chosen bytes wait under a provisional key (dropped once the host's copy is read). */
export async function cacheEventImage(tx: Tx, g: string, p: ImagePayload, id: number): Promise<void> {
  const e = await readItem<Record<string, unknown>>(tx, g, 'event', p.rkey)
  if (!e) return
  const image = p.image ? { cid: pendingImageKey(id), alt: p.image.alt, held: true } : null
  if (p.image) await keepEventImages(tx, g, new Map([[image!.cid, `data:${p.image.mimeType};base64,${p.image.data}`]]))
  await putItem(tx, g, 'event', p.rkey, { ...e, image }, id)
}

/** Uploads the picture and writes (or deletes) the image record at the event's rkey: choosing again overwrites, so a replay is harmless. */
export async function sendEventImage(rt: Runtime, g: string, p: ImagePayload): Promise<unknown> {
  const host = await rt.hostOf(g)
  const space = await ensureCalendarSpace(host, g, rt.knownSpaces)
  try {
    if (!p.image) return await rt.credentials.write(host.host, g, space, 'com.atproto.space.deleteRecord', { space, repo: g, collection: EVENT_IMAGE_COLLECTION, rkey: p.rkey })
    const { blob } = await rt.credentials.uploadSpaceBlob(host.host, g, space, Buffer.from(p.image.data, 'base64'), p.image.mimeType)
    const record = { $type: EVENT_IMAGE_COLLECTION, image: blob, ...(p.image.alt ? { alt: p.image.alt } : {}), event: eventAddress(g, p.rkey), createdAt: new Date().toISOString() }
    return await rt.credentials.write(host.host, g, space, 'com.atproto.space.putRecord', { space, repo: g, collection: EVENT_IMAGE_COLLECTION, rkey: p.rkey, record })
  } catch (err) {
    if (err instanceof XrpcCallError && err.error === 'SpaceNotFound') rt.knownSpaces.delete(space)
    throw err
  }
}

/** What a refused picture means, in words (also for a new event given one). */
export const IMAGE_CONFLICTS = {
  InvalidBlobType: 'That file is not a PNG, JPEG, WebP or GIF picture.',
  BlobTooLarge: 'That picture is larger than the group’s host takes (1 MB).',
  BlobQuotaExceeded: 'The group’s host holds as many event images as it allows: remove some first.',
}

export const EVENT_IMAGE_ACTIONS: ActionTable<'event.image'> = {
  'event.image': {
    undo: 'reread',
    label: (p) => (p.image ? 'Choose an image for an event' : 'Remove an event’s image'),
    applyToCache: cacheEventImage,
    send: sendEventImage,
    conflicts: { Forbidden: 'Your role cannot change this group’s calendar.', ...IMAGE_CONFLICTS },
    changes: ['record.created', 'record.updated', 'record.deleted'],
    list: 'events',
    confirmed: 'keep',
    identifiers: (p, { groupDid }) => [imageAddress(groupDid, p.rkey)],
  },
}
