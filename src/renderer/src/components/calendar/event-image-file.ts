import { ref } from 'vue'
/** The pictures the group's host takes for an event (uploadSpaceBlob): checked here first, so a wrong file is named at once. */
export const EVENT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
export type EventImageType = (typeof EVENT_IMAGE_TYPES)[number]
export const MAX_EVENT_IMAGE_BYTES = 1_000_000

/**
 * A chosen picture as the `event.image` action takes it (base64) and a preview (a data:
 * URL), or why it will not do, in words. The host tells the type from the bytes again:
 * the file's declared type is only a first check here.
 */
export async function readEventImage(file: File): Promise<{ data: string; mimeType: EventImageType; preview: string } | { error: string }> {
  if (!(EVENT_IMAGE_TYPES as readonly string[]).includes(file.type)) return { error: 'Choose a PNG, JPEG, WebP or GIF picture.' }
  if (file.size > MAX_EVENT_IMAGE_BYTES) return { error: `That picture is ${(file.size / 1_000_000).toFixed(1)} MB; the group’s host takes up to 1 MB.` }
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  const data = btoa(binary)
  return { data, mimeType: file.type as EventImageType, preview: `data:${file.type};base64,${data}` }
}

/** A picture field's state: the picture chosen (checked, with its preview) or why it will not do; `choose` is the file input's change handler. */
export function useChosenPicture() {
  const chosen = ref<{ data: string; mimeType: EventImageType; preview: string } | null>(null)
  const error = ref<string | null>(null)
  async function choose(e: Event) {
    const file = (e.target as HTMLInputElement).files?.[0]
    chosen.value = null
    error.value = null
    if (!file) return
    const read = await readEventImage(file)
    if ('error' in read) error.value = read.error
    else chosen.value = read
  }
  return { chosen, error, choose }
}
