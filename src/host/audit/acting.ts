import { AsyncLocalStorage } from 'node:async_hooks'

/** Whose call is running: the person, and whether they act for the group (a group credential or session). */
export interface Acting {
  did: string
  via: 'group' | null
}

const current = new AsyncLocalStorage<Acting>()

/**
 * Who a verified caller is, from what the method's auth returned: service auth names the
 * person (`did`); a group credential or session names the group and the member behind it
 * (`actor`). Null for unauthenticated calls.
 */
export function actingOf(credentials: unknown): Acting | null {
  if (!credentials || typeof credentials !== 'object') return null
  const c = credentials as { did?: unknown; actor?: unknown }
  if (typeof c.actor === 'string') return { did: c.actor, via: 'group' }
  if (typeof c.did === 'string') return { did: c.did, via: null }
  return null
}

/** Runs a method's handler knowing who called it, so every change it records names them (changes.ts). */
export function runActing<R>(acting: Acting | null, fn: () => R): R {
  return acting ? current.run(acting, fn) : fn()
}

/** Who the running call is, if a verified caller made it. */
export const currentActing = (): Acting | undefined => current.getStore()
