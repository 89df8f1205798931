// Which exporter delivers each destination type; null = not deliverable yet (refused at create, and
// not listed, so "stable" types are exactly the deliverable ones).
import type { DestinationType } from '../destination-types.ts'
import type { Exporter } from './exporter.ts'
import { createOtlpExporter } from './otlp-exporter.ts'
import { createS3Exporter } from './s3-exporter.ts'
import { createWebhookExporter } from './webhook-exporter.ts'

export const exporters: Readonly<Record<DestinationType, Exporter | null>> = {
  arize: createOtlpExporter('arize'),
  braintrust: createOtlpExporter('braintrust'),
  clickhouse: null,
  datadog: null,
  grafana: createOtlpExporter('grafana'),
  langfuse: createOtlpExporter('langfuse'),
  langsmith: createOtlpExporter('langsmith'),
  newrelic: createOtlpExporter('newrelic'),
  opik: createOtlpExporter('opik'),
  'otel-collector': createOtlpExporter('otel-collector'),
  posthog: null,
  ramp: null,
  s3: createS3Exporter(),
  sentry: createOtlpExporter('sentry'),
  snowflake: null,
  weave: createOtlpExporter('weave'),
  webhook: createWebhookExporter(),
}

export const deliverableTypes: ReadonlySet<DestinationType> = new Set(
  (Object.entries(exporters) as [DestinationType, Exporter | null][]).filter(([, exporter]) => exporter !== null).map(([type]) => type),
)
