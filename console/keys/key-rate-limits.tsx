// A key's own rate-limit rules as its key object lists them (`rate_limits`), with a link to manage them.
import type { ApiKey } from '../api/types.ts'
import { describeLimits } from '../rate-limits/rate-limit-rule.ts'
import { href } from '../router.ts'

export function KeyRateLimits({ apiKey }: { apiKey: ApiKey }) {
  const rules = apiKey.rate_limits ?? []
  return (
    <span class="rate-limits">
      {rules.length === 0
        ? 'defaults'
        : rules.map((rule) => (
            <span key={rule.id} class="rule">
              {rule.model ?? 'every model'}: {describeLimits(rule)}
            </span>
          ))}{' '}
      <a href={href(['rate-limits'], { key_hash: apiKey.hash })} aria-label={`rate limits of ${apiKey.name}`}>
        {rules.length === 0 ? 'add' : 'manage'}
      </a>
    </span>
  )
}
