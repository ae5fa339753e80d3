import { crc32, deflateSync } from 'node:zlib'

/**
 * A small avatar for a demo person, drawn here rather than committed: a 48×48 PNG, a
 * disc of the person's colour on a pale ground (a few hundred bytes, well under the
 * app's avatar cap).
 */
export function avatarPng(rgb: readonly [number, number, number], size = 48): Buffer {
  const row = 1 + size * 3
  const pixels = Buffer.alloc(row * size)
  const c = (size - 1) / 2
  for (let y = 0; y < size; y++) {
    pixels[y * row] = 0 // filter: none
    for (let x = 0; x < size; x++) {
      const inside = (x - c) ** 2 + (y - c) ** 2 <= (size * 0.42) ** 2
      const [r, g, b] = inside ? rgb : ([240, 240, 236] as const)
      pixels.set([r, g, b], y * row + 1 + x * 3)
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([len, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // truecolour
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))])
}
