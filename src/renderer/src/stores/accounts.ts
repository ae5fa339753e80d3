import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Account } from '../../../shared/ipc/contract'
import { useApi } from '../ipc/use-api'

export type SignInState =
  | { kind: 'idle' }
  | { kind: 'starting'; handle: string }
  | { kind: 'waiting'; handle: string; authorizeUrl: string }
  | { kind: 'failed'; message: string }

export const useAccountsStore = defineStore('accounts', () => {
  const api = useApi()
  const accounts = ref<Account[]>([])
  const loaded = ref(false)
  const error = ref<string | null>(null)
  const signIn = ref<SignInState>({ kind: 'idle' })
  // An account signed in or out elsewhere, or its session ended: the core says so.
  api.onNotice((notice) => {
    if (notice.name === 'account.state') void refresh()
  })

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

  /**
   * Signs in through the person's own PDS page. The main process opens it in the
   * system browser under Electron; in the loopback shell this page opens it in a tab.
   */
  async function startSignIn(handle: string): Promise<Account | null> {
    signIn.value = { kind: 'starting', handle }
    try {
      const start = await api['accounts.signIn']({ handle })
      if (!start.openedExternally) window.open(start.authorizeUrl, '_blank', 'noopener')
      signIn.value = { kind: 'waiting', handle, authorizeUrl: start.authorizeUrl }
      const account = await api['accounts.awaitSignIn']({ attemptId: start.attemptId })
      signIn.value = { kind: 'idle' }
      await refresh()
      return account
    } catch (err) {
      signIn.value = { kind: 'failed', message: (err as Error).message }
      return null
    }
  }

  async function signOut(did: string) {
    await api['accounts.signOut']({ did })
    await refresh()
  }

  return { accounts, loaded, error, signIn, refresh, startSignIn, signOut }
})
