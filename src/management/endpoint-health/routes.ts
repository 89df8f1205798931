// GET /api/v1/endpoints/health: every endpoint's circuit state and its last five minutes (attempts,
// error rate, latency percentiles) as this gateway instance saw them. Management keys only.
import { Type } from 'typebox'
import type { EndpointHealth } from '../../domain/endpoint-health.ts'
import type { TypedApp } from '../../http/typed-app.ts'

const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description })

const EndpointHealthList = Type.Object({
  data: Type.Array(
    Type.Object({
      provider: Type.String({ description: "The provider's slug ('' for an endpoint no longer in the catalog)" }),
      model: Type.String({ description: 'The model slug' }),
      endpoint_id: Type.String(),
      circuit_state: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')]),
      requests_5m: Type.Integer({ description: 'Upstream attempts in the last five minutes' }),
      error_rate_5m: nullableNumber('Failed attempts / attempts, 0 to 1; null without attempts'),
      latency_p50_ms: nullableNumber('Median attempt latency (ms); null without attempts'),
      latency_p99_ms: nullableNumber('99th percentile attempt latency (ms); null without attempts'),
    }),
  ),
})

export function registerEndpointHealthRoutes(app: TypedApp, readHealth: () => readonly EndpointHealth[]): void {
  app.get(
    '/api/v1/endpoints/health',
    {
      config: { auth: 'management' },
      schema: {
        tags: ['endpoints'],
        summary: 'Live health of every provider endpoint, as this instance sees it',
        description:
          'Circuit breaker state and the last five minutes of upstream attempts, from this gateway instance only (each replica keeps its own). Management keys only.',
        response: { 200: EndpointHealthList },
      },
    },
    () => ({
      data: readHealth().map((health) => ({
        provider: health.provider,
        model: health.model,
        endpoint_id: health.endpointId,
        circuit_state: health.circuitState,
        requests_5m: health.requests5m,
        error_rate_5m: health.errorRate5m,
        latency_p50_ms: health.latencyP50Ms,
        latency_p99_ms: health.latencyP99Ms,
      })),
    }),
  )
}
