import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/**
 * Secrets at rest (decisions 6, issue 13): every private key and token secret the host
 * stores is sealed with AES-256-GCM under the host key, a 32-byte key kept outside the
 * database (environment or key file, see host-key.ts). This is envelope encryption with
 * a standard AEAD from Node's OpenSSL binding: no hand-rolled crypto, a fresh random
 * 96-bit IV per value, and the 128-bit tag makes a wrong key or a tampered value fail
 * loudly instead of yielding garbage.
 *
 * `context` (e.g. `host_secret:signingKey`, `group:<did>:rotationKey`) is bound in as
 * additional authenticated data, so a sealed value copied into another row does not open.
 *
 * Format: `v1:` + base64(iv ‖ tag ‖ ciphertext). The prefix tells sealed values from the
 * plaintext hex that hosts before migration 008 stored.
 */
const VERSION = 'v1:'
const IV_BYTES = 12
const TAG_BYTES = 16
export const HOST_KEY_BYTES = 32

export class WrongHostKeyError extends Error {
  constructor(context: string) {
    super(
      `The host key does not open the secret "${context}" in host.sqlite: this database was encrypted with another key ` +
        '(check CONVENE_HOST_KEY or --key-file; after a rotation use the new key).',
    )
    this.name = 'WrongHostKeyError'
  }
}

export const isSealed = (value: string) => value.startsWith(VERSION)

export function seal(key: Buffer, plaintext: Buffer, context: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(context, 'utf8'))
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')
}

export function unseal(key: Buffer, sealed: string, context: string): Buffer {
  if (!isSealed(sealed)) throw new Error(`The secret "${context}" in host.sqlite is not sealed (expected after migration 008)`)
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64')
  if (raw.length < IV_BYTES + TAG_BYTES) throw new WrongHostKeyError(context)
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES))
  decipher.setAAD(Buffer.from(context, 'utf8'))
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
  } catch {
    throw new WrongHostKeyError(context)
  }
}

/** The AAD contexts, in one place so the writers, migration 008 and rotation agree. */
export const secretContext = (name: string) => `host_secret:${name}`
export const groupKeyContext = (groupDid: string) => `group:${groupDid}:rotationKey`
