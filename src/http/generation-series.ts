// What every finished generation adds to /metrics, counted once when the call core records it: the
// generation by model, provider and status, its tokens by type, the cost it billed (USD) and each
// fallback it took (an endpoint's retryable failure that moved the call to the next endpoint). Labels
// are catalog model and provider slugs only (never key ids or what a client typed), so the number of
// series is bounded by the catalog.
import type { Registry } from 'prom-client'
import { nanoToUsd } from '../domain/money.ts'
import type { AttemptRecord } from '../domain/inference/attempt-record.ts'
import type { GenerationRecord } from '../generations/generation-record.ts'
import { LabeledCounter } from './labeled-counter.ts'
import { scrapedMetric, type MetricValue } from './scraped-metric.ts'

/** The label of a call that never reached a provider (unknown model, refused, invalid). */
const NO_ENDPOINT = 'none'

interface UsageSeries {
  readonly labels: { readonly model: string; readonly provider: string }
  prompt: number
  completion: number
  reasoning: number
  cached: number
  costNano: bigint
}

const tokenTypes = ['prompt', 'completion', 'reasoning', 'cached'] as const

export class GenerationSeries {
  readonly #usage = new Map<string, UsageSeries>()
  readonly #generations: LabeledCounter<'model' | 'provider' | 'status'>
  readonly #fallbacks: LabeledCounter<'model' | 'provider' | 'reason'>

  constructor(registry: Registry) {
    const registers = [registry]
    this.#generations = new LabeledCounter({
      name: 'switchyard_generations_total',
      help: `Inference calls recorded, by model and provider that served them ("${NO_ENDPOINT}" when none did) and status (completed, failed, cancelled)`,
      labelNames: ['model', 'provider', 'status'],
      registers,
    })
    this.#fallbacks = new LabeledCounter({
      name: 'switchyard_fallbacks_total',
      help: 'Attempts that failed and moved the call on to the next endpoint, by the model and provider that failed and reason: unreachable (no HTTP answer), timeout, rate_limited, overloaded (529), unavailable (503), upstream_5xx, credentials_rejected (401/403), bad_response (a 2xx body that could not be read), other',
      labelNames: ['model', 'provider', 'reason'],
      registers,
    })
    registry.registerMetric(
      scrapedMetric(
        'switchyard_tokens_total',
        'Tokens of recorded calls by model, provider and type (prompt, completion, reasoning, cached); reasoning is part of completion and cached part of prompt',
        'counter',
        () => this.#tokenValues(),
      ),
    )
    registry.registerMetric(
      scrapedMetric(
        'switchyard_cost_usd_total',
        'Cost billed for recorded calls in USD, by model and provider',
        'counter',
        () => [...this.#usage.values()].map(({ labels, costNano }) => ({ labels, value: nanoToUsd(costNano) })),
      ),
    )
  }

  /** Counts one recorded generation. */
  count(record: GenerationRecord): void {
    const labels = servedBy(record)
    this.#generations.inc({ ...labels, status: record.status })
    countFallbacks(record.attempts, this.#fallbacks)
    const used = record.tokensPrompt + record.tokensCompletion + record.tokensCached + record.tokensReasoning
    if (used === 0 && record.costNano === 0n) return
    const key = `${labels.model}\n${labels.provider}`
    let series = this.#usage.get(key)
    if (series === undefined) {
      series = { labels, prompt: 0, completion: 0, reasoning: 0, cached: 0, costNano: 0n }
      this.#usage.set(key, series)
    }
    series.prompt += record.tokensPrompt
    series.completion += record.tokensCompletion
    series.reasoning += record.tokensReasoning
    series.cached += record.tokensCached
    series.costNano += record.costNano
  }

  #tokenValues(): MetricValue[] {
    const values: MetricValue[] = []
    for (const series of this.#usage.values())
      for (const type of tokenTypes) values.push({ labels: { ...series.labels, type }, value: series[type] })
    return values
  }
}

/**
 * The model and provider of the endpoint that answered (the last attempt that got a response), else the
 * record's provider with its model (both from the catalog once a provider is known), else none.
 */
function servedBy(record: GenerationRecord): { model: string; provider: string } {
  for (let index = record.attempts.length - 1; index >= 0; index--) {
    const attempt = record.attempts[index]!
    if (attempt.status === 200) return { model: attempt.model, provider: attempt.provider }
  }
  if (record.provider !== null) return { model: record.model, provider: record.provider }
  return { model: NO_ENDPOINT, provider: NO_ENDPOINT }
}

/** Every failed attempt followed by another attempt was a fallback. */
function countFallbacks(
  attempts: readonly AttemptRecord[],
  counter: LabeledCounter<'model' | 'provider' | 'reason'>,
): void {
  for (let index = 0; index < attempts.length - 1; index++) {
    const attempt = attempts[index]!
    if (attempt.status === 200) continue
    const reason = attempt.failure ?? fallbackReason(attempt.status)
    counter.inc({ model: attempt.model, provider: attempt.provider, reason })
  }
}

/** An attempt recorded without its failure classification: the reason its status alone tells. */
function fallbackReason(status: number): string {
  if (status === 429) return 'rate_limited'
  if (status === 408 || status === 504 || status === 524) return 'timeout'
  if (status === 529) return 'overloaded'
  if (status === 503) return 'unavailable'
  if (status >= 500) return 'upstream_5xx'
  return 'other'
}
