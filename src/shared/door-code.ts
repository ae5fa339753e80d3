/**
 * An attendee's door code (issue 36): six characters their own Convene shows on the event
 * ("K7F-2QX") and the door can type instead of a name, for a person whose name is hard to
 * spell or shared by several. Made from the group, the event and the person, so the
 * member's app and the door's make the same code apart, offline, with nothing stored or
 * sent. It identifies, as a name does; it proves nothing (the door still sees the face).
 * The digest is SHA-256 from the platform (WebCrypto in the window, node:crypto in the
 * core); only its first 30 bits are used.
 */

/** What is hashed: the group, the event's record key and the person's DID. */
export const doorCodeInput = (groupDid: string, rkey: string, did: string) => `convene door code ${groupDid} ${rkey} ${did}`

/** Crockford's base32: no I, L, O or U, so a code read aloud or typed is not mistaken. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** Six characters from the digest's first 30 bits, said as two threes. */
export function doorCodeOf(digest: Uint8Array): string {
  const bits = ((digest[0]! << 22) | (digest[1]! << 14) | (digest[2]! << 6) | (digest[3]! >> 2)) >>> 0
  let code = ''
  for (let i = 5; i >= 0; i--) code += ALPHABET[(bits >>> (i * 5)) & 31]
  return `${code.slice(0, 3)}-${code.slice(3)}`
}

/**
 * A typed code as compared, or null when it cannot be one: case, spaces and dashes do not
 * matter, and the letters people take for digits read as them (O as 0, I and L as 1).
 */
export function typedDoorCode(typed: string): string | null {
  const plain = typed.trim().toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1')
  return /^[0-9A-HJKMNP-TV-Z]{6}$/.test(plain) ? `${plain.slice(0, 3)}-${plain.slice(3)}` : null
}
