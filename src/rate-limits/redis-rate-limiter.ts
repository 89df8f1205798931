// Rate limits in Redis, shared by every gateway node: one Lua script per consume (one round trip,
// atomic across the key and organization buckets). The script mirrors gcraStep in rate-limiter.ts.
// Time comes from the injected clock, as for the spend counters. A Redis failure is `unavailable`.
// Redis expires a bucket on its own clock, so a bucket is kept one window past the moment it stops
// mattering: a gateway whose clock is behind Redis's (or a test's manual clock) never finds it gone early.
import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { Clock } from '../domain/clock.ts'
import { GatewayError } from '../domain/errors.ts'
import {
  assertValidConsume,
  decide,
  type BucketOutcome,
  type ConsumeRequest,
  type RateLimitDecision,
  type RateLimiter,
} from './rate-limiter.ts'

// KEYS: one per bucket. ARGV: now, cost, force (1|0), then limit and window per bucket.
// Reply: allowed (1|0), then per bucket: allowed, remaining, resetMs, retryAfterMs.
const consumeScript = `
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local force = ARGV[3] == '1'
local steps = {}
local all = true
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 + i * 2])
  local window = tonumber(ARGV[3 + i * 2])
  local interval = window / limit
  local tat = tonumber(redis.call('GET', KEYS[i]) or '') or now
  local base = math.max(tat, now)
  local newTat = base + math.min(cost, limit) * interval
  local allowAt = newTat - window
  local allowed = force or allowAt <= now
  if not allowed then all = false end
  steps[i] = { allowed, newTat, base, allowAt, window, interval }
end
local reply = { all and 1 or 0 }
for i = 1, #KEYS do
  local s = steps[i]
  local after = s[1] and s[2] or s[3]
  if all then
    redis.call('SET', KEYS[i], string.format('%.3f', s[2]), 'PX', math.ceil(s[2] - now + s[5]))
  end
  local remaining = math.max(0, math.floor((s[5] - (after - now)) / s[6] + 1e-9))
  local retry = 0
  if not s[1] then retry = math.max(1, math.ceil(s[4] - now)) end
  reply[#reply + 1] = s[1] and 1 or 0
  reply[#reply + 1] = remaining
  reply[#reply + 1] = math.max(0, math.ceil(after - now))
  reply[#reply + 1] = retry
end
return reply
`

const sha = createHash('sha1').update(consumeScript).digest('hex')

export interface RedisRateLimiterOptions {
  /** Prefix of every key; keep a `{hash tag}` in it so all buckets share one cluster slot. */
  readonly keyPrefix?: string
}

export class RedisRateLimiter implements RateLimiter {
  readonly #client: Redis
  readonly #clock: Clock
  readonly #prefix: string

  constructor(client: Redis, clock: Clock, options: RedisRateLimiterOptions = {}) {
    this.#client = client
    this.#clock = clock
    this.#prefix = options.keyPrefix ?? '{switchyard:rate}:'
  }

  async consume(request: ConsumeRequest): Promise<RateLimitDecision | null> {
    assertValidConsume(request)
    if (request.buckets.length === 0) return null
    const keys = request.buckets.map((bucket) => `${this.#prefix}rl:${bucket.id}`)
    const args = [String(this.#clock.now().getTime()), String(request.cost), request.force === true ? '1' : '0']
    for (const bucket of request.buckets) args.push(String(bucket.limit), String(bucket.windowMs))
    const reply = await this.#run(keys, args)
    if (
      !Array.isArray(reply) ||
      reply.length !== 1 + request.buckets.length * 4 ||
      !reply.every((item) => typeof item === 'number')
    ) {
      throw new GatewayError('internal', `Unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`)
    }
    const numbers = reply as number[]
    const outcomes: BucketOutcome[] = request.buckets.map((_bucket, index) => {
      const at = 1 + index * 4
      return {
        allowed: numbers[at] === 1,
        newTat: 0,
        remaining: numbers[at + 1]!,
        resetMs: numbers[at + 2]!,
        retryAfterMs: numbers[at + 3]!,
      }
    })
    return decide(request.buckets, outcomes, numbers[0] === 1)
  }

  async #run(keys: readonly string[], args: readonly string[]): Promise<unknown> {
    try {
      try {
        return await this.#client.evalsha(sha, keys.length, ...keys, ...args)
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error
        return await this.#client.eval(consumeScript, keys.length, ...keys, ...args)
      }
    } catch (error) {
      throw new GatewayError('unavailable', 'Rate limits are unavailable (Redis is unreachable); retry shortly', {
        cause: error,
      })
    }
  }
}
