import {
  RateLimitExceededError,
  type HandlerContext,
  type RateLimiterI,
  type RateLimiterStatus,
  type ServerRateLimitDescription,
} from '@atproto/xrpc-server'
import { methodOf } from '../xrpc-method.js'
import type { CounterStore } from './window-counter.js'
import type { RateLimits } from './rate-limits.js'
import { limitInWords, waitInWords } from './refusal.js'
import { markAuthenticated } from './authenticated.js'
import type { HostedGroups } from '../groups/hosted-groups.js'
import { parseSpaceAddress } from '../../shared/space-address.js'

type Ctx = HandlerContext

/** The account behind a request's credentials: service auth names `did`, group credentials `actor`. */
function accountOf(ctx: Ctx): string | null {
  const credentials = (ctx.auth as { credentials?: { did?: unknown; actor?: unknown } } | undefined)?.credentials
  const did = credentials?.did ?? credentials?.actor
  return typeof did === 'string' ? did : null
}

/**
 * The group a procedure names: the group of a group credential (issued by this host, so
 * hosted here), else its `group` input, else the group of its `space` (`notifyWrite`).
 * The last two are whatever the caller sent.
 */
function namedGroup(ctx: Ctx): { did: string; checked: boolean } | null {
  const credentials = (ctx.auth as { credentials?: { group?: unknown } } | undefined)?.credentials
  if (typeof credentials?.group === 'string') return { did: credentials.group, checked: true }
  const body = ctx.input?.body as { group?: unknown; space?: unknown } | undefined
  if (typeof body?.group === 'string') return { did: body.group, checked: false }
  const space = typeof body?.space === 'string' ? parseSpaceAddress(body.space) : null
  return space ? { did: space.authority, checked: false } : null
}

const CREATE_GROUP = 'example.groups.createGroup'
const isCreateGroup = (ctx: Ctx) => methodOf(ctx.req.originalUrl ?? ctx.req.url) === CREATE_GROUP

/** What a request counts against: the counter's key, and what a refusal calls it. */
interface Counted {
  key: string
  what: string
  per: string
}

/** Each limit: which requests it counts (null: not this one) and how many it allows. */
interface LimitRule {
  name: string
  points: number
  count: (ctx: Ctx) => Counted | null | Promise<Counted | null>
}

/**
 * Not a limit: marks requests whose credentials were accepted for the per-IP limit
 * (./authenticated.ts). Always present, so the mark does not depend on which limits are on.
 */
const MARK_AUTHENTICATED: LimitRule = {
  name: 'authenticated',
  points: 1,
  count: (ctx) => {
    if (accountOf(ctx)) markAuthenticated(ctx.req)
    return null
  },
}

function rules(limits: RateLimits, hostedGroups: HostedGroups): LimitRule[] {
  const all: LimitRule[] = [
    {
      name: 'createGroup',
      points: limits.createGroup,
      count: (ctx) => {
        const account = isCreateGroup(ctx) ? accountOf(ctx) : null
        return account ? { key: account, what: 'createGroup calls', per: 'per account' } : null
      },
    },
    {
      name: 'procedures',
      points: limits.procedures,
      // Per account and group (decisions 6.4) only for a group hosted here: the group is
      // the caller's choice, and each made-up one would otherwise be a fresh allowance
      // (issue 22), each call an unknown DID for the PLC. All of an account's calls
      // naming no group, or one not hosted here, share one count.
      count: async (ctx) => {
        const account = ctx.req.method === 'POST' && !isCreateGroup(ctx) ? accountOf(ctx) : null
        if (!account) return null
        const group = namedGroup(ctx)
        if (group && (group.checked || (await hostedGroups.has(group.did)))) {
          return { key: `${account} ${group.did}`, what: 'changes to this group', per: 'per account and group' }
        }
        return { key: `${account} elsewhere`, what: 'calls naming no group hosted here', per: 'per account' }
      },
    },
    {
      name: 'queries',
      points: limits.queries,
      count: (ctx) => {
        const account = ctx.req.method === 'GET' ? accountOf(ctx) : null
        return account ? { key: account, what: 'queries', per: 'per account' } : null
      },
    },
  ]
  return [MARK_AUTHENTICATED, ...all.filter((r) => r.points > 0)]
}

/**
 * A fixed-window limiter on a {@link CounterStore}, in the shape xrpc-server's rate
 * limiting takes, so xrpc-server sets the `RateLimit-*` and `Retry-After` headers as
 * @atproto/pds sends them.
 */
class WindowLimiter implements RateLimiterI<Ctx> {
  constructor(
    private readonly store: CounterStore,
    private readonly rule: LimitRule,
    private readonly windowSeconds: number,
  ) {}

  async consume(ctx: Ctx): Promise<RateLimiterStatus | null> {
    const counted = await this.rule.count(ctx)
    if (counted === null) return null
    const windowMs = this.windowSeconds * 1000
    const { count, resetAt } = await this.store.hit(`${this.rule.name} ${counted.key}`, 1, windowMs)
    const msBeforeNext = Math.max(0, resetAt - Date.now())
    const status: RateLimiterStatus = {
      limit: this.rule.points,
      duration: this.windowSeconds,
      remainingPoints: Math.max(0, this.rule.points - count),
      msBeforeNext,
      consumedPoints: count,
      isFirstInDuration: count === 1,
    }
    if (count > this.rule.points) {
      throw new RateLimitExceededError(
        status,
        `Too many ${counted.what}: this host allows ${limitInWords(this.rule.points, this.windowSeconds)} ${counted.per}. Try again ${waitInWords(msBeforeNext)}.`,
      )
    }
    return status
  }

  async reset(): Promise<void> {}
}

/**
 * xrpc-server's `rateLimits` option: every limit is "global" (applied to every method),
 * each counting only the requests its key picks. xrpc-server runs them after
 * authentication, so they count per account; requests that fail authentication never
 * get here and are limited per IP instead (./ip-limit.ts).
 */
export function xrpcRateLimits(store: CounterStore, limits: RateLimits, hostedGroups: HostedGroups) {
  const byName = new Map(rules(limits, hostedGroups).map((r) => [r.name, r]))
  // No `calcKey`: each limiter picks its own key (LimitRule.count), which may need a look-up.
  const global: ServerRateLimitDescription<Ctx>[] = [...byName.values()].map((r) => ({
    name: r.name,
    points: r.points,
    durationMs: limits.windowSeconds * 1000,
  }))
  return {
    global,
    creator: ((opts: { keyPrefix: string }) => {
      const rule = byName.get(opts.keyPrefix.replace(/^rl-/, ''))
      if (!rule) throw new Error(`no rate limit named ${opts.keyPrefix}`)
      return new WindowLimiter(store, rule, limits.windowSeconds)
    }) as never,
  }
}
