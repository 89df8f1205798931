// The per-request counters of /metrics (rate-limit decisions, upstream attempts) keep the names, help
// texts, labels and values they had as prom-client Counters.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Counter, Registry } from 'prom-client'
import { createGatewayMetrics } from './gateway-metrics.ts'

/** The lines of one metric family (HELP, TYPE and samples) in a scrape. */
function family(scrape: string, name: string): string[] {
  return scrape
    .split('\n')
    .filter(
      (line) =>
        line === `# HELP ${name}` ||
        line.startsWith(`# HELP ${name} `) ||
        line.startsWith(`# TYPE ${name} `) ||
        line.startsWith(`${name}{`),
    )
}

test('rate-limit decisions and upstream attempts scrape as the prom-client counters they replaced', async () => {
  const registry = new Registry()
  const metrics = createGatewayMetrics(registry)
  const reference = new Registry()
  const decisions = new Counter({
    name: 'switchyard_rate_limit_decisions_total',
    help: 'Rate-limit decisions by limit (per_key.requests_per_minute, ...) and decision (allowed, refused, error)',
    labelNames: ['limit', 'decision'] as const,
    registers: [reference],
  })
  const attempts = new Counter({
    name: 'switchyard_upstream_attempts_total',
    help: 'Upstream attempts by provider and HTTP status (0 = no response)',
    labelNames: ['provider', 'status'] as const,
    registers: [reference],
  })
  for (const labels of [
    { limit: 'per_key.requests_per_minute', decision: 'allowed' },
    { limit: 'per_key.requests_per_minute', decision: 'allowed' },
    { limit: 'per_key.tokens_per_minute', decision: 'refused' },
  ]) {
    metrics.rateLimitDecisions.inc(labels)
    decisions.inc(labels)
  }
  for (const labels of [
    { provider: 'openai', status: '200' },
    { provider: 'openai', status: '0' },
    { provider: 'openai', status: '200' },
  ]) {
    metrics.upstreamAttempts.inc(labels)
    attempts.inc(labels)
  }
  const ours = await registry.metrics()
  const theirs = await reference.metrics()
  for (const name of ['switchyard_rate_limit_decisions_total', 'switchyard_upstream_attempts_total']) {
    assert.deepEqual(family(ours, name), family(theirs, name))
    assert.equal(family(ours, name).length, 4)
  }
})
