import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Account } from '../../../shared/ipc/contract'
import { useApi } from '../ipc/use-api'

export const useAccountsStore = defineStore('accounts', () => {
  const api = useApi()
  const accounts = ref<Account[]>([])
  const loaded = ref(false)
  const error = ref<string | null>(null)

  async function refresh() {
    try {
      accounts.value = await api['accounts.list']({})
      error.value = null
    } catch (err) {
      error.value = (err as Error).message
    } finally {
      loaded.value = true
    }
  }
  return { accounts, loaded, error, refresh }
})
