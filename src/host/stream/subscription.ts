import { InvalidRequestError } from '@atproto/xrpc-server'
import type { ChangeTable } from '../db/schema.js'
import { loadGroup, viewerOf, type GroupLookup } from '../groups/access.js'
import { changeCursor, parseChangeCursor } from '../changes.js'
import { refuse } from '../errors.js'
import type { Change, Info } from '../../node/lexicon/types/example/groups/subscribeChanges.js'
import type { ChangeFeed } from './feed.js'
import { CallerView } from './caller-view.js'
import { logStart } from './log-horizon.js'

/** Entries judged per turn, from memory or from one query of the log. */
const PAGE = 500

/** What the connection's watchdog (./connections.ts) reads of a running stream. */
export interface StreamProgress {
  /** The cursor of the last frame handed to the socket: where a dropped client resumes. */
  cursor: string
  /** When the frame now being written was handed over (0: none is waiting). */
  sendingSince: number
}

export type StreamMessage = ({ $type: 'example.groups.subscribeChanges#change' } & Change) | ({ $type: 'example.groups.subscribeChanges#info' } & Info)

export interface StreamRequest {
  caller: string
  /** The groups named; undefined: every group where the caller is a member, as it changes. */
  groups?: string[]
  cursor?: string
}

/**
 * One caller's change stream (`example.groups.subscribeChanges`): the entries of the
 * log after the cursor that the caller may see, in log order, first from the log
 * (catching up, a page at a time) and then live from the process's feed (./feed.ts),
 * with one position throughout, so the switch neither skips nor repeats an entry. Each
 * entry is judged as it goes out (./caller-view.ts).
 */
export async function* streamChanges(ctx: GroupLookup, feed: ChangeFeed, req: StreamRequest, progress: StreamProgress, signal: AbortSignal): AsyncGenerator<StreamMessage> {
  const { caller } = req
  const named = req.groups?.length ? [...new Set(req.groups)] : undefined
  let following: Set<string>
  if (named) {
    for (const did of named) {
      const group = await loadGroup(ctx, did)
      if (!(await viewerOf(ctx.db, group.did, caller)).isMember) throw refuse('Forbidden', `Only members of a group may follow its changes, and you are not a member of ${did}`)
    }
    following = new Set(named)
  } else {
    following = await groupsOf(ctx, caller)
  }

  // Nobody was streaming until now: the feed has not read what was written meanwhile.
  if (feed.stale) await feed.refresh()
  let pos: number
  /** The log's start when the caller was last told it had passed their position (-1: never). */
  let toldOutdated = -1
  const outdated = async (): Promise<StreamMessage | null> => {
    const start = await logStart(ctx.db)
    if (pos >= start || start <= toldOutdated) return null
    toldOutdated = start
    return { $type: 'example.groups.subscribeChanges#info', name: 'OutdatedCursor', message: 'The change log no longer holds everything after that cursor: read your groups whole, then carry on from this stream' }
  }
  if (req.cursor === undefined) {
    pos = feed.end
  } else {
    pos = parseChangeCursor(req.cursor)
    // Another process may have read further than this one: catch up before refusing.
    if (pos > feed.end) await feed.refresh()
    if (pos > feed.end) throw new InvalidRequestError('That cursor is past the end of this host’s change log', 'FutureCursor')
    const info = await outdated()
    if (info) yield info
  }
  progress.cursor = changeCursor(pos)

  const view = new CallerView(ctx.db, caller)
  /** The entry as this caller gets it, or null when they do not. */
  const judge = async (change: ChangeTable): Promise<StreamMessage | null> => {
    const group = change.groupDid
    if (!following.has(group)) {
      // Following every group of the caller: one they join (or make) from here on too.
      // A group is made with its maker its only member: only the maker's stream judges it
      // (one membership query per open stream for every group made, before). One made by
      // no caller (the host's seed) is judged by each, as before.
      const made = change.kind === 'group.created' && (change.actor === null || change.actor === caller)
      const mayJoin = !named && (made || (change.kind === 'member.joined' && change.subject === caller))
      if (!mayJoin) return null
    }
    const { member, visible } = await view.judge(change)
    if (!named) {
      if (member) following.add(group)
      else {
        following.delete(group)
        view.forget(group)
      }
    }
    if (!visible) return null
    return {
      $type: 'example.groups.subscribeChanges#change',
      group,
      change: { seq: change.seq, kind: change.kind, ...(change.subject !== null ? { subject: change.subject } : {}), createdAt: change.createdAt },
      cursor: changeCursor(change.seq),
    }
  }

  while (!signal.aborted) {
    let batch = feed.after(pos, PAGE)
    /** How far a short page from the log read: nothing for this caller lies between its last entry and here. */
    let readTo: number | undefined
    if (batch === 'behind') {
      const end = feed.end
      // The caller's groups as they are now, after `end` was read: a group joined by
      // then is among them, and its entries up to `end` are read.
      const rows = await ctx.db
        .selectFrom('change')
        .selectAll()
        .where('seq', '>', pos)
        .where('seq', '<=', end)
        .where('groupDid', 'in', named ?? ((eb) => eb.selectFrom('member').select('member.groupDid').where('member.did', '=', caller)))
        .orderBy('seq')
        .limit(PAGE)
        .execute()
      batch = rows.map((row) => ({ ...row, seq: Number(row.seq) }))
      if (!named) for (const row of batch) following.add(row.groupDid)
      if (batch.length < PAGE) readTo = end
      // The log is pruned from its start (../change-log-retention.ts): a catch-up that
      // began inside it may be overtaken while it reads. Checked after the read, as
      // listChanges checks, so the caller hears of every entry it may have missed.
      const info = await outdated()
      if (info) yield info
    } else if (batch.length === 0) {
      await feed.until(pos, signal)
      continue
    }
    for (const change of batch) {
      if (signal.aborted) return
      pos = change.seq
      const message = await judge(change)
      if (!message) continue
      progress.cursor = changeCursor(pos)
      progress.sendingSince = Date.now()
      yield message
      progress.sendingSince = 0
    }
    if (readTo !== undefined && readTo > pos) pos = readTo
  }
}

/** The groups on this host where `did` is a member. */
async function groupsOf(ctx: GroupLookup, did: string): Promise<Set<string>> {
  const rows = await ctx.db.selectFrom('member').select('groupDid').where('did', '=', did).execute()
  return new Set(rows.map((r) => r.groupDid))
}
