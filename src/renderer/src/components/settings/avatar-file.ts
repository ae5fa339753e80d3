/** What the host takes for a group avatar (groups/avatar.ts): checked here first, so a wrong file is named at once. */
export const MAX_AVATAR_BYTES = 64 * 1024
const TYPES = ['image/png', 'image/jpeg', 'image/webp']

/**
 * A chosen picture as configureGroup takes it (base64) and a preview (a data: URL), or
 * why it will not do, in words. The host sniffs the bytes again: the file's declared
 * type is only a first check here.
 */
export async function readAvatar(file: File): Promise<{ base64: string; preview: string } | { error: string }> {
  if (!TYPES.includes(file.type)) return { error: 'Choose a PNG, JPEG or WebP picture.' }
  if (file.size > MAX_AVATAR_BYTES) return { error: `That picture is ${Math.ceil(file.size / 1024)} KB: choose one of at most 64 KB (a small square picture is plenty).` }
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  const base64 = btoa(binary)
  return { base64, preview: `data:${file.type};base64,${base64}` }
}
