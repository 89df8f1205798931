// A rate-limit rule as the API returns it (GET /api/v1/rate-limits), and how one reads in a table.
export interface RateLimitRule {
  readonly id: string
  readonly scope: 'key' | 'workspace'
  readonly key_hash: string | null
  readonly workspace_id: string
  readonly model: string | null
  readonly requests_per_minute: number | null
  readonly tokens_per_minute: number | null
  readonly updated_at: string
}

/** The limits of a rule (or of a key object's `rate_limits` item): `60 req/min · 10,000 tokens/min`. */
export function describeLimits(rule: Pick<RateLimitRule, 'requests_per_minute' | 'tokens_per_minute'>): string {
  const parts: string[] = []
  if (rule.requests_per_minute !== null) parts.push(`${rule.requests_per_minute.toLocaleString('en-US')} req/min`)
  if (rule.tokens_per_minute !== null) parts.push(`${rule.tokens_per_minute.toLocaleString('en-US')} tokens/min`)
  return parts.join(' · ')
}
