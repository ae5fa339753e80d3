import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { GroupSession } from '../../../shared/ipc/contract'
import type { EventFields } from '../composables/calendar-format'
import { useApi } from '../ipc/use-api'

export type GroupSignInState =
  | { kind: 'idle' }
  | { kind: 'starting'; group: string }
  | { kind: 'waiting'; group: string; authorizeUrl: string }
  | { kind: 'failed'; message: string }

/**
 * Groups this computer acts as ("Act as a group"). The sign-in runs on the group host's
 * pages in the browser, as an account's runs on its PDS's; what each session may do
 * comes from the core (the scope the host granted), never from what was asked for.
 */
export const useGroupSessionsStore = defineStore('groupSessions', () => {
  const api = useApi()
  const sessions = ref<GroupSession[]>([])
  const error = ref<string | null>(null)
  const signIn = ref<GroupSignInState>({ kind: 'idle' })

  async function refresh() {
    try {
      sessions.value = await api['groupSessions.list']({})
      error.value = null
    } catch (err) {
      error.value = (err as Error).message
    }
  }

  async function startSignIn(group: string): Promise<GroupSession | null> {
    signIn.value = { kind: 'starting', group }
    try {
      const start = await api['groupSessions.signIn']({ group })
      if (!start.openedExternally) window.open(start.authorizeUrl, '_blank', 'noopener')
      signIn.value = { kind: 'waiting', group, authorizeUrl: start.authorizeUrl }
      const session = await api['groupSessions.awaitSignIn']({ attemptId: start.attemptId })
      signIn.value = { kind: 'idle' }
      await refresh()
      return session
    } catch (err) {
      signIn.value = { kind: 'failed', message: (err as Error).message }
      return null
    }
  }

  async function signOut(did: string) {
    await api['groupSessions.signOut']({ did })
    await refresh()
  }

  /** Adds an event to the group's calendar as the group; the error's words are the core's. */
  async function createEvent(groupDid: string, event: EventFields) {
    try {
      return await api['groupSessions.createEvent']({ groupDid, event })
    } finally {
      // A refusal may mean the session ended or its grant shrank: show what holds now.
      await refresh()
    }
  }

  return { sessions, error, signIn, refresh, startSignIn, signOut, createEvent }
})
