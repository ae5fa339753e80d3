import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AppInfo } from '../../../shared/ipc/contract'
import { useApi } from '../ipc/use-api'

/** What the app knows about itself: version, shell, network, keychain health. */
export const useAppStore = defineStore('app', () => {
  const api = useApi()
  const info = ref<AppInfo | null>(null)
  const error = ref<string | null>(null)

  async function load() {
    try {
      info.value = await api['app.getInfo']({})
      error.value = null
    } catch (err) {
      error.value = (err as Error).message
    }
  }
  return { info, error, load }
})
