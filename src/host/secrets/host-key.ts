import fs from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { HOST_KEY_BYTES } from './sealed.js'

export const HOST_KEY_ENV = 'CONVENE_HOST_KEY'

/** A host key in its text form (base64 of 32 random bytes), as the env var and key files hold it. */
export const newHostKeyText = () => randomBytes(HOST_KEY_BYTES).toString('base64')

export class HostKeyError extends Error {}

function decode(text: string, from: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64')
  if (key.length !== HOST_KEY_BYTES || key.toString('base64') !== text.trim()) {
    throw new HostKeyError(`${from} must hold a base64 host key of ${HOST_KEY_BYTES} bytes (make one with: npm run host -- new-key-file <path>)`)
  }
  return key
}

const isInside = (file: string, dir: string) => {
  const rel = path.relative(dir, file)
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
}

/** Reads a key file; refused inside the data directory, whose backups must not carry their own key. */
export function readHostKeyFile(file: string, dataDir?: string): Buffer {
  const abs = path.resolve(file)
  if (dataDir && isInside(abs, path.resolve(dataDir))) {
    throw new HostKeyError(`--key-file ${abs} is inside the data directory ${dataDir}: keep the key apart from the database it protects`)
  }
  let text: string
  try {
    text = fs.readFileSync(abs, 'utf8')
  } catch (err) {
    throw new HostKeyError(`cannot read the key file ${abs}: ${(err as Error).message}`)
  }
  return decode(text, `the key file ${abs}`)
}

/**
 * The host key: `--key-file` if given, else `CONVENE_HOST_KEY`. There is no silent
 * default: a host that made up its own key beside its database would protect nothing.
 */
export function loadHostKey(opts: { keyFile?: string; dataDir?: string; env?: NodeJS.ProcessEnv }): Buffer {
  if (opts.keyFile) return readHostKeyFile(opts.keyFile, opts.dataDir)
  const fromEnv = (opts.env ?? process.env)[HOST_KEY_ENV]
  if (fromEnv) return decode(fromEnv, HOST_KEY_ENV)
  throw new HostKeyError(
    `The host needs its key to encrypt the keys it stores: pass --key-file <path> or set ${HOST_KEY_ENV} (base64, ${HOST_KEY_BYTES} bytes). ` +
      'Make one with: npm run host -- new-key-file /etc/convene/host.key',
  )
}

/** Writes a new key file readable by its owner only; never overwrites one. */
export function writeNewHostKeyFile(file: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  fs.writeFileSync(file, `${newHostKeyText()}\n`, { mode: 0o600, flag: 'wx' })
}
