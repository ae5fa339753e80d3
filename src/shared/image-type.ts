/** The image types Convene and its host show or serve: what a browser shows with nothing to run. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
export type ImageType = (typeof IMAGE_TYPES)[number]

const starts = (bytes: Uint8Array, at: number, ...sig: number[]) => sig.every((v, i) => bytes[at + i] === v)

/**
 * What an image's first bytes say it is, or null for anything else: never what a
 * sender, a PDS or a host declares, so nothing but an image is ever shown or served as
 * one. One reading for the app (avatars, event pictures) and the host (uploads).
 */
export function imageTypeOf(bytes: Uint8Array): ImageType | null {
  if (starts(bytes, 0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png'
  if (starts(bytes, 0, 0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (starts(bytes, 0, 0x47, 0x49, 0x46, 0x38)) return 'image/gif'
  // RIFF, then the size, then WEBP.
  if (starts(bytes, 0, 0x52, 0x49, 0x46, 0x46) && starts(bytes, 8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp'
  return null
}
