// A stored rate-limit rule as the API shows it.
import type { RateLimitRule } from '../../domain/rate-limit-rule.ts'
import type { RateLimitRuleObject } from './schema.ts'

export function toRateLimitRuleObject(rule: RateLimitRule): RateLimitRuleObject {
  return {
    id: rule.id,
    scope: rule.scope,
    key_hash: rule.scope === 'key' ? rule.target : null,
    workspace_id: rule.workspaceId,
    model: rule.model,
    requests_per_minute: rule.requestsPerMinute,
    tokens_per_minute: rule.tokensPerMinute,
    created_at: rule.createdAt,
    updated_at: rule.updatedAt,
  }
}
