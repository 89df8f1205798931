// The limiter buckets of API-set rate-limit rules. A bucket's id is stable per rule target and model, so
// changing a rule's number keeps its state; its prefix (`key.requests_per_minute`,
// `workspace_model.tokens_per_minute`, ...) is the limit's name in messages and metrics.
import type { RateLimitRule } from '../domain/rate-limit-rule.ts'
import type { RateLimitBucket } from './rate-limiter.ts'

const minute = 60_000

export type RuleField = 'requests_per_minute' | 'tokens_per_minute'

export function ruleBuckets(rules: readonly RateLimitRule[], field: RuleField): RateLimitBucket[] {
  const buckets: RateLimitBucket[] = []
  for (const rule of rules) {
    const limit = field === 'requests_per_minute' ? rule.requestsPerMinute : rule.tokensPerMinute
    if (limit === null) continue
    const name = rule.model === null ? rule.scope : `${rule.scope}_model`
    const modelPart = rule.model === null ? '' : `|${rule.model}`
    buckets.push({
      id: `${name}.${field}:${rule.target}${modelPart}`,
      limit,
      windowMs: minute,
      description: `${rule.scope === 'key' ? "the key's" : "the workspace's"} limit${rule.model === null ? '' : ` for ${rule.model}`} (rate-limit rule ${rule.id})`,
      ruleId: rule.id,
    })
  }
  return buckets
}
