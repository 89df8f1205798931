// The live health of every endpoint this instance knows: each catalog endpoint, and any other endpoint
// (a private endpoint) that has an open breaker or recent attempts. Per instance: another replica's
// breaker and traffic are its own.
import type { Catalog } from '../../domain/catalog.ts'
import type { CircuitState, EndpointHealth } from '../../domain/endpoint-health.ts'
import type { BreakerState, CircuitBreaker } from './circuit-breaker.ts'
import type { OutcomeSummary, RecentOutcomes } from './recent-outcomes.ts'

const circuitStates: Readonly<Record<BreakerState, CircuitState>> = {
  closed: 'closed',
  open: 'open',
  'half-open': 'half_open',
}

export function endpointHealth(catalog: Catalog, breaker: CircuitBreaker, outcomes: RecentOutcomes): EndpointHealth[] {
  const recent = new Map(outcomes.summaries().map((summary) => [summary.endpointId, summary]))
  const known = new Map<string, { provider: string; model: string }>()
  for (const model of catalog.models())
    for (const endpoint of model.endpoints)
      known.set(endpoint.id, { provider: endpoint.provider.slug, model: model.slug })
  for (const summary of recent.values()) if (!known.has(summary.endpointId)) known.set(summary.endpointId, summary)
  for (const endpointId of Object.keys(breaker.snapshot()))
    if (!known.has(endpointId)) known.set(endpointId, { provider: '', model: '' })
  return [...known]
    .map(([endpointId, { provider, model }]) => healthOf(endpointId, provider, model, breaker, recent.get(endpointId)))
    .sort(
      (a, b) =>
        a.provider.localeCompare(b.provider) ||
        a.model.localeCompare(b.model) ||
        a.endpointId.localeCompare(b.endpointId),
    )
}

function healthOf(
  endpointId: string,
  provider: string,
  model: string,
  breaker: CircuitBreaker,
  summary: OutcomeSummary | undefined,
): EndpointHealth {
  const requests = summary?.requests ?? 0
  return {
    provider,
    model,
    endpointId,
    circuitState: circuitStates[breaker.state(endpointId)],
    requests5m: requests,
    errorRate5m: summary === undefined ? null : summary.errors / requests,
    latencyP50Ms: summary?.latencyP50Ms ?? null,
    latencyP99Ms: summary?.latencyP99Ms ?? null,
  }
}
