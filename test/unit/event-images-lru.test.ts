import { describe, expect, it } from 'vitest'
import { eventImageLoader, Lru, type EventImageRef } from '../../src/renderer/src/composables/event-images'

const ref = (cid: string): EventImageRef => ({ accountDid: 'did:plc:me', groupDid: 'did:plc:group', cid })
const url = (cid: string) => `data:image/png;base64,${cid}`

describe('events’ pictures in the window', () => {
  it('keeps only the most recently used entries', () => {
    const lru = new Lru<string>(2)
    lru.set('a', '1')
    lru.set('b', '2')
    expect(lru.get('a')).toBe('1') // a is now the newest
    lru.set('c', '3')
    expect(lru.get('b')).toBeUndefined()
    expect(lru.get('a')).toBe('1')
    expect(lru.get('c')).toBe('3')
    expect(lru.size).toBe(2)
  })

  it('asks for each picture once, however often the list is re-read, and once for two cards asking at once', async () => {
    const asked: string[] = []
    const loader = eventImageLoader(async (r) => (asked.push(r.cid), { url: url(r.cid) }))
    const [a, b] = await Promise.all([loader.url(ref('bafy1')), loader.url(ref('bafy1'))])
    expect([a, b]).toEqual([url('bafy1'), url('bafy1')])
    for (let i = 0; i < 5; i++) expect(await loader.url(ref('bafy1'))).toBe(url('bafy1'))
    expect(asked).toEqual(['bafy1'])
  })

  it('holds at most its bound: the least recently shown picture is asked for again', async () => {
    const asked: string[] = []
    const loader = eventImageLoader(async (r) => (asked.push(r.cid), { url: url(r.cid) }), 3)
    for (const cid of ['c1', 'c2', 'c3', 'c1', 'c4']) await loader.url(ref(cid))
    expect(loader.kept.size).toBe(3)
    await loader.url(ref('c1')) // kept (used again before c4 came)
    await loader.url(ref('c2')) // dropped for c4
    expect(asked).toEqual(['c1', 'c2', 'c3', 'c4', 'c2'])
  })

  it('asks the app with exactly the three fields its channel takes', async () => {
    const asked: unknown[] = []
    const loader = eventImageLoader(async (r) => (asked.push(r), null))
    await loader.url({ ...ref('y'), held: true } as EventImageRef)
    expect(asked).toEqual([ref('y')])
  })

  it('does not remember a picture the app does not hold, nor a failed call', async () => {
    let held = false
    let fail = true
    const loader = eventImageLoader(async (r) => {
      if (fail) throw new Error('closed')
      return held ? { url: url(r.cid) } : null
    })
    expect(await loader.url(ref('x'))).toBeNull()
    fail = false
    expect(await loader.url(ref('x'))).toBeNull()
    held = true
    expect(await loader.url(ref('x'))).toBe(url('x'))
  })
})
