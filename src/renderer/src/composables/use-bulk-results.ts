import { computed, shallowRef, watch } from 'vue'
import type { GroupSummary, OutboxItem } from '../../../shared/ipc/views'
import { outboxKey, useGroupsStore } from '../stores/groups'
import { useApi } from '../ipc/use-api'
import { personName } from './person-name'

/** One row of a bulk action: what it was about, named for people, and its queued action. */
export interface BulkRow {
  key: string
  name: string
  outboxId: number
}
/** Where one row's action stands: waiting (queued, held, being sent), done, failed (with the plain reason), or undone before it was sent. */
export interface BulkRowResult extends BulkRow {
  state: 'waiting' | 'done' | 'failed' | 'undone'
  /** Why it failed, or why it waits (the host not answering): the outbox's own words. */
  reason: string | null
}
/** A bulk action just taken: what it was ("Resolve") and its rows. */
export interface BulkRun {
  verb: string
  rows: BulkRow[]
}

/**
 * The per-row result of the last bulk action in a view, read from the outbox as it
 * sends: each row's queued action is a row of the outbox like any other, so a row that
 * waits out a host that is down says so, and says "done" once sent, whenever that is.
 * A row left the outbox is done when the outbox said so, or when it was seen there and
 * went without failing (a whole read of the outbox lists no sent rows).
 */
export function useBulkResults(group: () => GroupSummary) {
  const store = useGroupsStore()
  const api = useApi()
  const run = shallowRef<BulkRun | null>(null)
  /** Counts bulk actions started, so a look-up for an earlier one never renames a later one's rows. */
  let generation = 0
  /** The run's outbox rows seen in the outbox (by outboxKey), and those the person undid. */
  const seen = shallowRef(new Set<string>())
  const undone = shallowRef(new Set<number>())
  const keyOf = (id: number) => outboxKey({ accountDid: group().accountDid, id })

  const inOutbox = computed(() => {
    const mine = new Map<string, OutboxItem>()
    if (!run.value) return mine
    const wanted = new Set(run.value.rows.map((r) => keyOf(r.outboxId)))
    for (const item of store.outbox) if (wanted.has(outboxKey(item))) mine.set(outboxKey(item), item)
    return mine
  })
  watch(inOutbox, (now) => {
    const grown = [...now.keys()].filter((k) => !seen.value.has(k))
    if (grown.length) seen.value = new Set([...seen.value, ...grown])
  })

  const results = computed<BulkRowResult[]>(() =>
    (run.value?.rows ?? []).map((row) => {
      const key = keyOf(row.outboxId)
      const item = inOutbox.value.get(key)
      if (undone.value.has(row.outboxId)) return { ...row, state: 'undone', reason: null }
      if (item?.state === 'conflict' || item?.state === 'failed') return { ...row, state: 'failed', reason: item.detail ?? 'It could not be done.' }
      if (item) return { ...row, state: 'waiting', reason: item.detail }
      if (store.sent.has(key) || seen.value.has(key)) return { ...row, state: 'done', reason: null }
      return { ...row, state: 'waiting', reason: null }
    }),
  )
  /**
   * Rows chosen before their person's handle was known (a list shows a row at once and its
   * verified handle a moment later) are named again once it is looked up, so the results
   * name people, never a DID (a failure leaves the short DID as it was).
   */
  async function nameUnnamed(rows: BulkRow[], of: number) {
    for (const row of rows.filter((r) => r.key.startsWith('did:') && r.name === personName({ did: r.key }))) {
      const person = await api['people.resolve']({ ref: row.key }).catch(() => null)
      // A later bulk action (or closing the results) ends this one's naming.
      if (!person?.handle || of !== generation || !run.value) continue
      const named = personName({ did: person.did, handle: person.handle })
      run.value = { ...run.value, rows: run.value.rows.map((r) => (r.outboxId === row.outboxId ? { ...r, name: named } : r)) }
    }
  }

  const counts = computed(() => {
    const c = { waiting: 0, done: 0, failed: 0, undone: 0 }
    for (const r of results.value) c[r.state]++
    return c
  })

  return {
    run,
    results,
    counts,
    /** A bulk action was queued: its rows' results are shown from now on. */
    start(verb: string, rows: BulkRow[]) {
      seen.value = new Set()
      undone.value = new Set()
      run.value = { verb, rows }
      void nameUnnamed(rows, ++generation)
    },
    /** The person took back rows not yet sent (Undo): they say so, not "done". */
    markUndone(ids: number[]) {
      undone.value = new Set([...undone.value, ...ids])
    },
    close() {
      run.value = null
    },
  }
}
