import { defineStore } from 'pinia'
import { ref } from 'vue'
import { useApi } from '../ipc/use-api'

/**
 * How many things wait for the person across every group (Today, main/core/today/): the
 * window's title and the sidebar's Today entry show it. Read once, then told by the
 * core's `today.changed` notices (which also move `revision`, so Today's pages are read
 * again), never polled.
 */
export const useTodayStore = defineStore('today', () => {
  const api = useApi()
  const waiting = ref(0)
  const revision = ref(0)
  let started = false

  async function read() {
    try {
      const page = await api['today.items']({ limit: 1 })
      waiting.value = page.waiting
      revision.value = Math.max(revision.value, page.revision)
    } catch {
      // The count stays as it was; the next notice says it again.
    }
  }

  function start() {
    if (started) return
    started = true
    api.onNotice((notice) => {
      if (notice.name === 'today.changed') {
        waiting.value = notice.payload.waiting
        revision.value = notice.payload.revision
      } else if (notice.name === 'account.state' || notice.name === 'groups.changed') void read()
    })
    void read()
  }
  return { waiting, revision, start, read }
})
