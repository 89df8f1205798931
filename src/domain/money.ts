// Exact money. Balances, limits and costs are bigint nano-dollars (1e-9 USD). Prices are USD per
// token as decimal strings and are parsed to bigint atto-dollars (1e-18 USD) per token, so prices
// finer than a nano-dollar per token (e.g. "0.0000000000375") still multiply out exactly.
//
// Rounding rule: a cost is summed exactly in atto-dollars over every kind of usage and the fixed
// request fee, then rounded UP to the next nano-dollar once, at the end. So a cost is never
// under-billed, is over-billed by less than one nano-dollar, and splitting a usage into parts can
// only add less than one nano-dollar per extra part (ceil(a + b) <= ceil(a) + ceil(b) < ceil(a + b) + 2).

import { GatewayError } from './errors.ts'

export const NANO_PER_USD = 1_000_000_000n
export const ATTO_PER_NANO = 1_000_000_000n
const PRICE_DECIMALS = 18
const PRICE_PATTERN = /^\d+(\.\d+)?$/

/** A price in USD per token, parsed: atto-dollars (1e-18 USD) per token. */
export type AttoPerToken = bigint

/** Parses a decimal USD-per-token string; throws invalid_request on anything else. */
export function parsePrice(text: string): AttoPerToken {
  if (!PRICE_PATTERN.test(text)) {
    throw new GatewayError(
      'invalid_request',
      `Price "${text}" is not a non-negative decimal string such as "0.0000002"`,
    )
  }
  const [whole = '0', fraction = ''] = text.split('.')
  const significant = fraction.replace(/0+$/, '')
  if (significant.length > PRICE_DECIMALS) {
    throw new GatewayError('invalid_request', `Price "${text}" has more than ${PRICE_DECIMALS} decimal places`)
  }
  return BigInt(whole) * 10n ** BigInt(PRICE_DECIMALS) + BigInt(significant.padEnd(PRICE_DECIMALS, '0'))
}

/** Prices as configured: decimal strings, USD per token (`request` is USD per request). */
export interface PricingText {
  readonly prompt: string
  readonly completion: string
  readonly input_cache_read?: string
  readonly input_cache_write?: string
  readonly internal_reasoning?: string
  readonly request?: string
}

/** Parsed prices. A kind without its own price is billed at its parent's price (see `parsePricing`). */
export interface Pricing {
  readonly prompt: AttoPerToken
  readonly completion: AttoPerToken
  readonly inputCacheRead: AttoPerToken
  readonly inputCacheWrite: AttoPerToken
  readonly reasoning: AttoPerToken
  readonly request: AttoPerToken
}

/**
 * Parses every price once (at configuration time). Missing optional prices fall back so that no
 * token is ever free by omission: cache reads and writes to the prompt price, reasoning to the
 * completion price; a missing request fee is zero.
 */
export function parsePricing(text: PricingText): Pricing {
  const prompt = parsePrice(text.prompt)
  const completion = parsePrice(text.completion)
  return {
    prompt,
    completion,
    inputCacheRead: text.input_cache_read === undefined ? prompt : parsePrice(text.input_cache_read),
    inputCacheWrite: text.input_cache_write === undefined ? prompt : parsePrice(text.input_cache_write),
    reasoning: text.internal_reasoning === undefined ? completion : parsePrice(text.internal_reasoning),
    request: text.request === undefined ? 0n : parsePrice(text.request),
  }
}

/**
 * Billable token counts, one disjoint count per kind: `promptTokens` excludes cached tokens and
 * `completionTokens` excludes reasoning tokens (the caller splits provider usage this way).
 * `requests` defaults to 1: the fixed fee is charged once per billed call.
 */
export interface BillableUsage {
  readonly promptTokens: number
  readonly completionTokens: number
  readonly inputCacheReadTokens?: number
  readonly inputCacheWriteTokens?: number
  readonly reasoningTokens?: number
  readonly requests?: number
}

function count(value: number | undefined, name: string): bigint {
  if (value === undefined) return 0n
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new GatewayError('invalid_request', `${name} must be a non-negative integer, got ${value}`)
  }
  return BigInt(value)
}

/** The exact cost in atto-dollars (1e-18 USD); additive over usages. */
export function costAtto(pricing: Pricing, usage: BillableUsage): bigint {
  return (
    count(usage.promptTokens, 'promptTokens') * pricing.prompt +
    count(usage.completionTokens, 'completionTokens') * pricing.completion +
    count(usage.inputCacheReadTokens, 'inputCacheReadTokens') * pricing.inputCacheRead +
    count(usage.inputCacheWriteTokens, 'inputCacheWriteTokens') * pricing.inputCacheWrite +
    count(usage.reasoningTokens, 'reasoningTokens') * pricing.reasoning +
    count(usage.requests ?? 1, 'requests') * pricing.request
  )
}

/** Rounds a non-negative atto-dollar amount up to whole nano-dollars. */
export function attoToNanoCeil(atto: bigint): bigint {
  if (atto < 0n) throw new RangeError('attoToNanoCeil takes a non-negative amount')
  return (atto + ATTO_PER_NANO - 1n) / ATTO_PER_NANO
}

/** The cost of a usage in nano-dollars: exact sum, rounded up once. */
export function costNano(pricing: Pricing, usage: BillableUsage): bigint {
  return attoToNanoCeil(costAtto(pricing, usage))
}

/**
 * A JS number of USD (a limit such as 12.5, a grant) to nano-dollars. Exact for every number whose
 * shortest decimal form has at most 9 decimal places, which includes every decimal with at most 9
 * places and at most 15 significant digits (so every such amount below one million USD). Finer
 * amounts are rounded to the nearest nano-dollar, halves away from zero.
 */
export function usdToNano(usd: number): bigint {
  if (!Number.isFinite(usd)) throw new RangeError(`usdToNano takes a finite number, got ${usd}`)
  const negative = usd < 0
  const [mantissa = '0', exponentText = '0'] = String(Math.abs(usd)).split('e')
  const [whole = '0', fraction = ''] = mantissa.split('.')
  const digits = BigInt(whole + fraction)
  const scale = Number(exponentText) - fraction.length + 9 // nano = digits * 10^scale
  let nano: bigint
  if (scale >= 0) {
    nano = digits * 10n ** BigInt(scale)
  } else {
    const divisor = 10n ** BigInt(-scale)
    nano = digits / divisor
    if ((digits % divisor) * 2n >= divisor) nano += 1n
  }
  return negative ? -nano : nano
}

/** Nano-dollars to a USD number for the wire: the double nearest to the exact decimal value. */
export function nanoToUsd(nano: bigint): number {
  const negative = nano < 0n
  const magnitude = negative ? -nano : nano
  const whole = magnitude / NANO_PER_USD
  const fraction = (magnitude % NANO_PER_USD).toString().padStart(9, '0')
  return Number(`${negative ? '-' : ''}${whole}.${fraction}`)
}
