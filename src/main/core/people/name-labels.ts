import type { Kysely, Transaction } from 'kysely'
import type { CacheSchema } from '../cache/cache-db.js'
import type { OutboxRow } from '../outbox/outbox.js'
import { ACTIONS, isActionKind, payloadSchema } from '../actions/registry.js'
import type { ActionKind, ActionPayloads, NameOf } from '../actions/action-spec.js'
import { knownHandles } from './list-handles.js'
import { knownProfiles } from './profile-cache.js'

type Db = Kysely<CacheSchema> | Transaction<CacheSchema>

/** Who an action names by DID (a member, a join request's asker, an invitee). */
const peopleIn = (payload: unknown): string[] => {
  const p = (payload ?? {}) as { did?: unknown; invitee?: unknown }
  return [p.did, p.invitee].filter((v): v is string => typeof v === 'string' && v.startsWith('did:'))
}

/**
 * How a pending change names a person: "yourself" for the signed-in account, else their
 * display name with their handle, or the handle alone; never their DID, which nobody
 * can check by eye (someone not looked up yet is said to be so).
 */
export function nameOf(accountDid: string, handles: Map<string, string | null>, names: Map<string, string | null>): NameOf {
  return (did) => {
    if (did === accountDid) return 'yourself'
    const handle = handles.get(did) ?? null
    const name = names.get(did) ?? null
    if (name && handle) return `${name} (@${handle})`
    if (name) return name
    if (handle) return `@${handle}`
    return 'someone not yet looked up'
  }
}

/**
 * The outbox rows' labels, said again with the names now known: a row's stored label was
 * written when it was queued, before the person's handle or profile may have been read.
 */
export async function nameLabels(db: Db, accountDid: string, rows: OutboxRow[]): Promise<string[]> {
  const dids = [...new Set(rows.flatMap((r) => peopleIn(r.payload)))]
  if (dids.length === 0) return rows.map((r) => r.label)
  const [handles, profiles] = await Promise.all([knownHandles(db, dids), knownProfiles(db, dids)])
  const name = nameOf(accountDid, handles, new Map([...profiles].map(([did, p]) => [did, p.displayName])))
  return rows.map((row) => {
    if (!isActionKind(row.kind) || peopleIn(row.payload).length === 0) return row.label
    const parsed = payloadSchema(row.kind).safeParse(row.payload)
    return parsed.success ? labelOf(row.kind, parsed.data, name) : row.label
  })
}

const labelOf = <K extends ActionKind>(kind: K, payload: unknown, name: NameOf) => ACTIONS[kind].label(payload as ActionPayloads[K], name)
