import fs from 'node:fs'
import path from 'node:path'
import type { StackFile } from '../shared/stack-file.js'

/** Where `npm run stack` (and `npm start`) describe the running local network. */
export const DEFAULT_STACK_FILE = path.resolve(import.meta.dirname, '../../.stack/stack.json')

/** Written whole and renamed into place, so a reader never sees half a file. */
export function writeStackFile(file: string, stack: StackFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(stack, null, 2))
  fs.renameSync(`${file}.tmp`, file)
}

export function removeStackFile(file: string): void {
  fs.rmSync(file, { force: true })
}
