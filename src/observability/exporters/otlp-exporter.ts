// OTLP/HTTP (protobuf) delivery through the OpenTelemetry JS exporter, for otel-collector and every
// product whose ingestion accepts OTLP. The destination's own `headers` are sent too. The OpenTelemetry
// modules load on first delivery, so processes that never deliver (CLI commands) do not pay for them.
import { assertEgressAllowed } from '../../http/egress-policy.ts'
import type { Exporter } from './exporter.ts'
import { otlpTargets, type OtlpProduct } from './otlp-targets.ts'

/** ExportResult of @opentelemetry/core: code 0 is success. */
interface ExportResult {
  readonly code: number
  readonly error?: Error
}

export function createOtlpExporter(product: OtlpProduct): Exporter {
  return {
    async deliver(payload, target, context) {
      const otlp = otlpTargets[product](target.config)
      await assertEgressAllowed(otlp.url, context.egress)
      const [{ OTLPTraceExporter }, { generationSpan }] = await Promise.all([import('@opentelemetry/exporter-trace-otlp-proto'), import('./generation-span.ts')])
      const exporter = new OTLPTraceExporter({
        url: otlp.url,
        headers: { ...otlp.headers, ...(target.config.headers ?? {}) },
        timeoutMillis: context.timeoutMs,
        keepAlive: false,
      })
      try {
        const result = await new Promise<ExportResult>((resolve) => exporter.export([generationSpan(payload.record, otlp.resource)], resolve))
        if (result.code !== 0) throw result.error ?? new Error('OTLP export failed')
      } finally {
        await exporter.shutdown().catch(() => undefined)
      }
    },
  }
}
