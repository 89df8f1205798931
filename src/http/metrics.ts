// Prometheus metrics, one registry per app (no global state): request counts and latency histograms
// per route and status. Other modules add their own metrics to the same registry.
import type { FastifyInstance } from 'fastify'
import { Registry, collectDefaultMetrics } from 'prom-client'
import { RequestSeries } from './request-series.ts'

export interface HttpMetrics {
  readonly registry: Registry
  readonly requests: RequestSeries
}

export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'switchyard_' })
  const requests = new RequestSeries({
    counter: {
      name: 'switchyard_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
    },
    histogram: {
      name: 'switchyard_http_request_duration_seconds',
      help: 'Time from request received to response sent, by method, route pattern and status',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    },
  })
  requests.register(registry)
  return { registry, requests }
}

/**
 * Records every response and writes one access-log line per request (no headers, so no credentials).
 * The line goes through the app logger with the request id as its first field: the same line the
 * request's child logger would write, without building that child (see deferred-request-logger.ts).
 * Its fields are top-level scalars, which no redact path (`req.headers.*`, `*.secret`, ...) can reach,
 * so it is written without redaction: pino's redaction copies the object of every line it checks, the
 * larger part of the line's cost.
 */
export function registerRequestObservers(app: FastifyInstance, metrics: HttpMetrics): void {
  const accessLog = app.log.child({}, { redact: [] })
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    metrics.requests.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000)
    accessLog.info(
      {
        reqId: request.id,
        method: request.method,
        url: request.url.split('?')[0],
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        key: request.principal?.key.label,
      },
      'request',
    )
  })
}
