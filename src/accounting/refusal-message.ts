// The 402 a refused reservation answers with: which limit, its amount, what is spent and held, what the
// request needed, and when the limit resets (or how to raise it).
import type { Clock } from '../domain/clock.ts'
import { GatewayError } from '../domain/errors.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import { windowAt } from './windows.ts'
import { formatUsd } from './format-usd.ts'

export interface Refusal {
  readonly scopeId: string
  readonly limitNano: bigint
  readonly spentNano: bigint
  readonly reservedNano: bigint
}

export interface RefusalContext {
  readonly key: ApiKeyRecord
  readonly keyLimitScopeId: string | null
  readonly creditScopeId: string
  readonly amountNano: bigint
  readonly clock: Clock
}

function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export function refusalError(refusal: Refusal, context: RefusalContext): GatewayError {
  const standing = `spent ${formatUsd(refusal.spentNano)}, held for requests in flight ${formatUsd(refusal.reservedNano)}, this request needs up to ${formatUsd(context.amountNano)}`
  if (refusal.scopeId === context.keyLimitScopeId) {
    const period = context.key.limitReset
    const limit = `Key limit of ${formatUsd(refusal.limitNano)}`
    const message =
      period === null
        ? `${limit} exceeded (${standing}); this limit never resets: raise it with PATCH /api/v1/keys/${context.key.hash}`
        : `${limit} (${period}) exceeded; resets at ${isoSeconds(windowAt(period, context.clock.now().getTime()).end)} (${standing})`
    return new GatewayError('payment_required', message, { metadata: { limit_source: 'key_limit' } })
  }
  if (refusal.scopeId === context.creditScopeId) {
    const balance = refusal.limitNano - refusal.spentNano
    return new GatewayError(
      'payment_required',
      `Insufficient credits: the balance is ${formatUsd(balance)} (credits ${formatUsd(refusal.limitNano)}, ${standing}); add credits with POST /api/v1/credits/grants`,
      { metadata: { limit_source: 'credits' } },
    )
  }
  return new GatewayError(
    'payment_required',
    `Budget ${refusal.scopeId} of ${formatUsd(refusal.limitNano)} exceeded (${standing})`,
    {
      metadata: { limit_source: 'budget' },
    },
  )
}
