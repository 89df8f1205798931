// Prometheus metrics beyond HTTP requests, on the app's registry: rate-limit decisions, upstream
// attempts, generations (tokens, cost, fallbacks), content-filter matches, circuit-breaker states,
// cache sizes / hit ratios and observability delivery depth. Gauges read their sources when scraped;
// the counters bumped per request are LabeledCounters (plain numbers, no per-call label hashing).
import { Gauge, type Registry } from 'prom-client'
import type { ContentFilterFinding } from '../guardrails/content-filter-engine.ts'
import type { RateLimitMetricLabels } from '../rate-limits/rate-limit-policy.ts'
import { GenerationSeries } from './generation-series.ts'
import { LabeledCounter } from './labeled-counter.ts'
import { scrapedMetric } from './scraped-metric.ts'

export interface GatewayMetrics {
  readonly rateLimitDecisions: LabeledCounter<RateLimitMetricLabels>
  readonly upstreamAttempts: LabeledCounter<'provider' | 'status'>
  /** Generations, tokens, cost and fallbacks per model and provider, counted from each call's record. */
  readonly generations: GenerationSeries
  /** Counts the flag and redact rules one request's input matched: once per rule, however many messages. */
  countContentFilterMatches(findings: readonly ContentFilterFinding[]): void
  /** Reports breaker states (endpoint id -> open | half-open; closed ones are absent) when scraped. */
  observeBreakers(snapshot: () => Record<string, string>): void
  /** Reports cache entries and lookups (hits, misses) when scraped. */
  observeCache(name: string, read: () => { entries: number; hits?: number; misses?: number }): void
  /** Reports the observability outbox's rows by status (pending, delivered, dead) when scraped. */
  observeOutbox(read: () => Promise<Readonly<Record<string, number>>>): void
  /** Reports the observability records held only in memory by direct delivery when scraped. */
  observeDirectDelivery(read: () => number): void
  /** Reports the provider-reported cost left unbilled past reservations (USD since start) when scraped. */
  observeUnbilledExcess(read: () => number): void
  /** Reports the batched rows the store refused and set aside, by table, when scraped. */
  observeRejectedRows(read: () => ReadonlyMap<string, number>): void
}

type CacheReading = { entries: number; hits?: number; misses?: number }

export function createGatewayMetrics(registry: Registry): GatewayMetrics {
  const registers = [registry]
  const rateLimitDecisions = new LabeledCounter({
    name: 'switchyard_rate_limit_decisions_total',
    help: 'Rate-limit decisions by limit (per_key.requests_per_minute, ...) and decision (allowed, refused, error)',
    labelNames: ['limit', 'decision'] as const,
    registers,
  })
  const upstreamAttempts = new LabeledCounter({
    name: 'switchyard_upstream_attempts_total',
    help: 'Upstream attempts by provider and HTTP status (0 = no response)',
    labelNames: ['provider', 'status'] as const,
    registers,
  })
  const contentFilterMatches = new LabeledCounter({
    name: 'switchyard_guardrail_content_matches_total',
    help: 'Requests whose input matched a content filter that flags or redacts (once per rule and request), by guardrail id, rule (builtin slug or pattern:<source>) and action',
    labelNames: ['guardrail', 'rule', 'action'] as const,
    registers,
  })
  const breakerSources: (() => Record<string, string>)[] = []
  const caches = new Map<string, () => CacheReading>()
  registerBreakerGauge(registers, breakerSources)
  registerCacheGauges(registers, caches)
  const delivery = registerDeliveryGauges(registers)
  let readUnbilledExcess = (): number => 0
  registry.registerMetric(
    scrapedMetric(
      'switchyard_unbilled_excess_usd_total',
      "Cost of providers' reported usage above what requests reserved, in USD: recorded on the generations, never billed",
      'counter',
      () => [{ labels: {}, value: readUnbilledExcess() }],
    ),
  )
  const observeRejectedRows = registerRejectedRowsCounter(registry)
  return {
    rateLimitDecisions,
    upstreamAttempts,
    generations: new GenerationSeries(registry),
    countContentFilterMatches(findings) {
      const counted = new Set<string>()
      for (const { guardrailId: guardrail, rule, action } of findings) {
        const labels = `${guardrail}\u0000${rule}\u0000${action}`
        if (counted.has(labels)) continue
        counted.add(labels)
        contentFilterMatches.inc({ guardrail, rule, action })
      }
    },
    observeBreakers: (snapshot) => void breakerSources.push(snapshot),
    observeCache: (name, read) => void caches.set(name, read),
    observeOutbox: (read) => delivery.observeOutbox(read),
    observeDirectDelivery: (read) => delivery.observeDirectDelivery(read),
    observeUnbilledExcess: (read) => {
      readUnbilledExcess = read
    },
    observeRejectedRows,
  }
}

function registerBreakerGauge(registers: Registry[], sources: readonly (() => Record<string, string>)[]): void {
  new Gauge({
    name: 'switchyard_circuit_breaker_state',
    help: 'Endpoints whose circuit breaker is not closed (1 per endpoint and state)',
    labelNames: ['endpoint', 'state'] as const,
    registers,
    collect() {
      this.reset()
      for (const source of sources)
        for (const [endpoint, state] of Object.entries(source())) this.set({ endpoint, state }, 1)
    },
  })
}

function registerCacheGauges(registers: Registry[], caches: ReadonlyMap<string, () => CacheReading>): void {
  new Gauge({
    name: 'switchyard_cache_entries',
    help: 'Entries held by each in-memory cache',
    labelNames: ['cache'] as const,
    registers,
    collect() {
      for (const [cache, read] of caches) this.set({ cache }, read().entries)
    },
  })
  new Gauge({
    name: 'switchyard_cache_lookups',
    help: 'Cache lookups since start by result (hit, miss); hit ratio = hit / (hit + miss)',
    labelNames: ['cache', 'result'] as const,
    registers,
    collect() {
      for (const [cache, read] of caches) {
        const { hits, misses } = read()
        if (hits !== undefined) this.set({ cache, result: 'hit' }, hits)
        if (misses !== undefined) this.set({ cache, result: 'miss' }, misses)
      }
    },
  })
}

function registerDeliveryGauges(
  registers: Registry[],
): Pick<GatewayMetrics, 'observeOutbox' | 'observeDirectDelivery'> {
  let outboxSource: (() => Promise<Readonly<Record<string, number>>>) | null = null
  new Gauge({
    name: 'switchyard_observability_outbox_rows',
    help: 'Observability outbox rows by status (pending = depth still to deliver, dead = dead-lettered)',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      if (outboxSource === null) return
      for (const [status, count] of Object.entries(await outboxSource())) this.set({ status }, count)
    },
  })
  let directSource: (() => number) | null = null
  new Gauge({
    name: 'switchyard_observability_records_in_memory',
    help: 'Observability records held only in memory by direct delivery (queued, or in flight and not yet kept in the outbox)',
    registers,
    collect() {
      if (directSource !== null) this.set(directSource())
    },
  })
  return {
    observeOutbox: (read) => {
      outboxSource = read
    },
    observeDirectDelivery: (read) => {
      directSource = read
    },
  }
}

function registerRejectedRowsCounter(registry: Registry): GatewayMetrics['observeRejectedRows'] {
  let read: () => ReadonlyMap<string, number> = () => new Map()
  registry.registerMetric(
    scrapedMetric(
      'switchyard_store_rows_rejected_total',
      'Rows of a write-behind batch (ledger_entries, generations) the store refused on their own and set aside, by table',
      'counter',
      () => [...read()].map(([table, value]) => ({ labels: { table }, value })),
    ),
  )
  return (source) => {
    read = source
  }
}
