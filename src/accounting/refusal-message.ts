// The 402 a refused reservation answers with: which limit, its amount, what is spent and held, what the
// request needed, and when the limit resets (or how to raise it). When the request's worst case assumes
// an output allowance, the message opens as OpenRouter's does, with the output tokens requested (or
// assumed) and how many the limit's remaining amount affords, so the caller can lower `max_tokens`.
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

/** The output side of a worst case: the tokens it assumes and how many a smaller amount pays for. */
export interface OutputAllowance {
  /** `max_tokens` as requested, or the model's output limit assumed when none was given. */
  readonly requestedTokens: number
  /** The most output tokens `availableNano` pays for, together with the request's input (0 if none). */
  affordableTokens(availableNano: bigint): number
}

export interface RefusalContext {
  readonly key: ApiKeyRecord
  readonly keyLimitScopeId: string | null
  readonly creditScopeId: string
  readonly amountNano: bigint
  readonly output?: OutputAllowance | undefined
  readonly clock: Clock
}

function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export function refusalError(refusal: Refusal, context: RefusalContext): GatewayError {
  const error = limitError(refusal, context)
  const { output } = context
  if (output === undefined) return error
  const available = refusal.limitNano - refusal.spentNano - refusal.reservedNano
  const affordable = available > 0n ? output.affordableTokens(available) : 0
  return new GatewayError(
    'payment_required',
    `This request requires more credits, or fewer max_tokens. You requested up to ${output.requestedTokens} tokens, but can only afford ${affordable}. ${error.message}`,
    {
      metadata: {
        ...error.metadata,
        requested_output_tokens: output.requestedTokens,
        affordable_output_tokens: affordable,
      },
    },
  )
}

function limitError(refusal: Refusal, context: RefusalContext): GatewayError {
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
