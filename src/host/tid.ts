import { randomInt } from 'node:crypto'

const S32 = '234567abcdefghijklmnopqrstuvwxyz'
const CLOCK_ID = randomInt(1024)
let last = 0

function s32(n: bigint, width: number): string {
  let out = ''
  for (let i = 0; i < width; i++) {
    out = S32[Number(n & 31n)] + out
    n >>= 5n
  }
  return out
}

/**
 * A record key in the atproto TID form: 53 bits of microseconds since the epoch and a
 * 10-bit clock id, base32-sortable. Strictly increasing within this process, so keys
 * made in the same microsecond still differ and sort in creation order.
 */
export function nextTid(): string {
  const now = Date.now() * 1000
  last = Math.max(now, last + 1)
  return s32((BigInt(last) << 10n) | BigInt(CLOCK_ID), 13)
}
