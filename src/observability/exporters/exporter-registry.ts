// Which exporter delivers each destination type; null = not deliverable yet (refused at create, and
// not listed, so "stable" types are exactly the deliverable ones). Exporters hold connections, so each
// delivery worker builds its own set (createExporters) and closes it when it stops.
import type { DestinationType } from '../destination-types.ts'
import type { Exporter, Exporters } from './exporter.ts'
import { createOtlpExporter } from './otlp-exporter.ts'
import { createS3Exporter } from './s3-exporter.ts'
import { createWebhookExporter } from './webhook-exporter.ts'

const exporterFactories: Readonly<Record<DestinationType, (() => Exporter) | null>> = {
  arize: () => createOtlpExporter('arize'),
  braintrust: () => createOtlpExporter('braintrust'),
  clickhouse: null,
  datadog: null,
  grafana: () => createOtlpExporter('grafana'),
  langfuse: () => createOtlpExporter('langfuse'),
  langsmith: () => createOtlpExporter('langsmith'),
  newrelic: () => createOtlpExporter('newrelic'),
  opik: () => createOtlpExporter('opik'),
  'otel-collector': () => createOtlpExporter('otel-collector'),
  posthog: null,
  ramp: null,
  s3: createS3Exporter,
  sentry: () => createOtlpExporter('sentry'),
  snowflake: null,
  weave: () => createOtlpExporter('weave'),
  webhook: createWebhookExporter,
}

export function createExporters(): Exporters {
  const entries = Object.entries(exporterFactories) as [DestinationType, (() => Exporter) | null][]
  return Object.fromEntries(entries.map(([type, create]) => [type, create === null ? null : create()])) as Record<
    DestinationType,
    Exporter | null
  >
}

export const deliverableTypes: ReadonlySet<DestinationType> = new Set(
  (Object.entries(exporterFactories) as [DestinationType, unknown][])
    .filter(([, create]) => create !== null)
    .map(([type]) => type),
)
