import {
  RateLimitExceededError,
  type CalcKeyFn,
  type HandlerContext,
  type RateLimiterI,
  type RateLimiterStatus,
  type ServerRateLimitDescription,
} from '@atproto/xrpc-server'
import { methodOf } from '../auth/service-auth.js'
import type { CounterStore } from './window-counter.js'
import type { RateLimits } from './rate-limits.js'
import { limitInWords, waitInWords } from './refusal.js'
import { markAuthenticated } from './authenticated.js'

type Ctx = HandlerContext

/** The account behind a request's credentials: service auth names `did`, group credentials `actor`. */
function accountOf(ctx: Ctx): string | null {
  const credentials = (ctx.auth as { credentials?: { did?: unknown; actor?: unknown } } | undefined)?.credentials
  const did = credentials?.did ?? credentials?.actor
  return typeof did === 'string' ? did : null
}

/** The group a procedure acts on: its `group` input, or the group a group credential is for. */
function groupOf(ctx: Ctx): string {
  const body = ctx.input?.body as { group?: unknown } | undefined
  const credentials = (ctx.auth as { credentials?: { group?: unknown } } | undefined)?.credentials
  const group = body?.group ?? credentials?.group
  return typeof group === 'string' ? group : ''
}

const CREATE_GROUP = 'example.groups.createGroup'
const isCreateGroup = (ctx: Ctx) => methodOf(ctx.req.originalUrl ?? ctx.req.url) === CREATE_GROUP

/** Each limit: which requests it counts (null: not this one) and what a refusal says. */
interface LimitRule {
  name: string
  points: number
  calcKey: CalcKeyFn<Ctx>
  what: string
  per: string
}

/**
 * Not a limit: marks requests whose credentials were accepted for the per-IP limit
 * (./authenticated.ts). Always present, so the mark does not depend on which limits are on.
 */
const MARK_AUTHENTICATED: LimitRule = {
  name: 'authenticated',
  points: 1,
  calcKey: (ctx) => {
    if (accountOf(ctx)) markAuthenticated(ctx.req)
    return null
  },
  what: '',
  per: '',
}

function rules(limits: RateLimits): LimitRule[] {
  const all: LimitRule[] = [
    {
      name: 'createGroup',
      points: limits.createGroup,
      calcKey: (ctx) => (isCreateGroup(ctx) ? accountOf(ctx) : null),
      what: 'createGroup calls',
      per: 'per account',
    },
    {
      name: 'procedures',
      points: limits.procedures,
      calcKey: (ctx) => {
        const account = ctx.req.method === 'POST' && !isCreateGroup(ctx) ? accountOf(ctx) : null
        return account && `${account} ${groupOf(ctx)}`
      },
      what: 'changes to this group',
      per: 'per account and group',
    },
    {
      name: 'queries',
      points: limits.queries,
      calcKey: (ctx) => (ctx.req.method === 'GET' ? accountOf(ctx) : null),
      what: 'queries',
      per: 'per account',
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
    const key = this.rule.calcKey(ctx)
    if (key === null) return null
    const windowMs = this.windowSeconds * 1000
    const { count, resetAt } = await this.store.hit(`${this.rule.name} ${key}`, 1, windowMs)
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
        `Too many ${this.rule.what}: this host allows ${limitInWords(this.rule.points, this.windowSeconds)} ${this.rule.per}. Try again ${waitInWords(msBeforeNext)}.`,
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
export function xrpcRateLimits(store: CounterStore, limits: RateLimits) {
  const byName = new Map(rules(limits).map((r) => [r.name, r]))
  const global: ServerRateLimitDescription<Ctx>[] = [...byName.values()].map((r) => ({
    name: r.name,
    points: r.points,
    durationMs: limits.windowSeconds * 1000,
    calcKey: r.calcKey,
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
