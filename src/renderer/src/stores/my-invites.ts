import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { MyInvite } from '../../../shared/ipc/my-invite-views'
import { useApi } from '../ipc/use-api'
import { useAccountsStore } from './accounts'

/** An invite waiting for one of the signed-in accounts. */
export type WaitingInvite = MyInvite & { accountDid: string; accountHandle: string }

/**
 * The invites waiting for the signed-in people (issue 28), read from the hosts the app
 * knows when the accounts change and when the groups page opens: the sidebar says how
 * many, the groups page lists them.
 */
export const useMyInvitesStore = defineStore('my-invites', () => {
  const api = useApi()
  const accounts = useAccountsStore()
  const invites = ref<WaitingInvite[]>([])
  const unreachable = ref<string[]>([])
  const active = computed(() => accounts.accounts.filter((a) => a.status === 'active'))

  async function load() {
    const answers = await Promise.all(
      active.value.map(async (a) => {
        try {
          const mine = await api['invites.mine']({ accountDid: a.did })
          return { invites: mine.invites.map((i) => ({ ...i, accountDid: a.did, accountHandle: a.handle })), unreachable: mine.unreachableHosts }
        } catch {
          // Offline or signed out meanwhile: the groups page says hosts could not be asked.
          return { invites: [], unreachable: ['(no answer)'] }
        }
      }),
    )
    invites.value = answers.flatMap((a) => a.invites)
    unreachable.value = [...new Set(answers.flatMap((a) => a.unreachable))]
  }
  watch(() => active.value.map((a) => a.did).join(), () => void load(), { immediate: true })

  /** Takes an answered invite off the list at once (its host has it already). */
  function answered(accountDid: string, groupDid: string) {
    invites.value = invites.value.filter((i) => !(i.accountDid === accountDid && i.groupDid === groupDid))
  }

  return { invites, unreachable, load, answered }
})
