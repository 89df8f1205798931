// Usage in the key's limit window against its limit, as a bar (no bar when there is no limit).
import type { KeyUsage } from '../api/types.ts'
import { formatUsd } from '../format.ts'

const windowUsage: Record<'daily' | 'weekly' | 'monthly' | 'total', (key: KeyUsage) => number> = {
  daily: (key) => key.usage_daily,
  weekly: (key) => key.usage_weekly,
  monthly: (key) => key.usage_monthly,
  total: (key) => key.usage,
}

export function UsageBar({ usage }: { usage: KeyUsage }) {
  const window = usage.limit_reset ?? 'total'
  const used = windowUsage[window](usage)
  if (usage.limit === null) return <span class="usage-text">{formatUsd(used)} (no limit)</span>
  const share = usage.limit === 0 ? 1 : Math.min(1, used / usage.limit)
  const text = `${formatUsd(used)} of ${formatUsd(usage.limit)} ${window === 'total' ? 'in total' : window}`
  return (
    <span class="usage">
      <span
        class="bar"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={usage.limit}
        aria-valuenow={used}
        aria-label={text}
      >
        <span class={share >= 0.9 ? 'fill high' : 'fill'} style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </span>
      <span class="usage-text">{text}</span>
    </span>
  )
}
