import { ref, watch, type Ref } from 'vue'
import { useApi } from '../ipc/use-api'

/** The most a window keeps of events' pictures (each up to 1.4 MB as a data: URL). */
export const EVENT_IMAGES_KEPT = 50

/** A map that keeps only its `max` most recently used entries. */
export class Lru<V> {
  private readonly entries = new Map<string, V>()
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const v = this.entries.get(key)
    if (v === undefined) return undefined
    // Used again: it moves to the newest end (a Map keeps insertion order).
    this.entries.delete(key)
    this.entries.set(key, v)
    return v
  }
  set(key: string, v: V): void {
    this.entries.delete(key)
    this.entries.set(key, v)
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!)
  }
  get size(): number {
    return this.entries.size
  }
}

export interface EventImageRef {
  accountDid: string
  groupDid: string
  cid: string
}

/**
 * Loads events' pictures by CID, each once: an events list re-read (every live change)
 * names them, and only a picture not kept yet is asked of the app (`groups.eventImage`,
 * from its cache). Two cards asking at once share one call; a picture not held is not
 * remembered, so it is asked again once the list says it is.
 */
export function eventImageLoader(load: (ref: EventImageRef) => Promise<{ url: string } | null>, max = EVENT_IMAGES_KEPT) {
  const kept = new Lru<string>(max)
  const loading = new Map<string, Promise<string | null>>()
  return {
    kept,
    async url(ref: EventImageRef): Promise<string | null> {
      const key = `${ref.accountDid} ${ref.groupDid} ${ref.cid}`
      const have = kept.get(key)
      if (have !== undefined) return have
      const going = loading.get(key)
      if (going) return going
      // Only the three the channel takes (it refuses anything else, `held` included).
      const call = load({ accountDid: ref.accountDid, groupDid: ref.groupDid, cid: ref.cid })
        .then((r) => {
          if (r) kept.set(key, r.url)
          return r?.url ?? null
        })
        .catch(() => null)
        .finally(() => loading.delete(key))
      loading.set(key, call)
      return call
    },
  }
}

let shared: ReturnType<typeof eventImageLoader> | undefined

/** The picture of one event as a data: URL once loaded (null: none, not held, or not yet). */
export function useEventImage(source: () => (EventImageRef & { held: boolean }) | null): Ref<string | null> {
  const api = useApi()
  const loader = (shared ??= eventImageLoader((ref) => api['groups.eventImage'](ref)))
  const url = ref<string | null>(null)
  watch(
    () => {
      const s = source()
      return s?.held ? `${s.accountDid} ${s.groupDid} ${s.cid}` : null
    },
    async (key) => {
      const s = source()
      if (!key || !s) return void (url.value = null)
      const got = await loader.url(s)
      // A later picture may have been asked for meanwhile: only the current one shows.
      if (key === (source()?.held ? `${source()!.accountDid} ${source()!.groupDid} ${source()!.cid}` : null)) url.value = got
    },
    { immediate: true },
  )
  return url
}
