// OTLP/HTTP (protobuf) delivery through the OpenTelemetry JS exporter, for otel-collector and every
// product whose ingestion accepts OTLP. The destination's own `headers` are sent too. All records of a
// worker batch go out as one export request, through one long-lived keep-alive exporter per destination
// (rebuilt when the destination's settings change). The exporter is the one OTLPTraceExporter is built
// from (its configuration, export delegate and timeouts), given spans already encoded a few at a time
// (sliced-spans.ts) so that a batch never holds the event loop, and sending through undici with
// OpenTelemetry's retry policy (otlp-http-transport.ts). The OpenTelemetry modules load on first
// delivery, once, so processes that never deliver (CLI commands) do not pay for them.
import type { Resource } from '@opentelemetry/resources'
import type { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base'
import { assertEgressAllowed } from '../../http/egress-policy.ts'
import { DestinationClients } from './destination-clients.ts'
import { DestinationRefused, type Exporter, type ExportContext, type ExportTarget } from './exporter.ts'
import type { OutboxPayload } from '../destination-record.ts'
import { otlpTargets, type OtlpProduct } from './otlp-targets.ts'
import type { SlicedSpans } from './sliced-spans.ts'

/** ExportResult of @opentelemetry/core: code 0 is success. */
interface ExportResult {
  readonly code: number
  readonly error?: Error
}

interface OtlpClient {
  readonly exporter: OTLPExporterBase<SlicedSpans>
  readonly resource: Resource
  /** The exporter's transport; closed with it, so its connections close. */
  readonly transport: { close(): Promise<void> }
}

async function closeClient(client: OtlpClient): Promise<void> {
  await client.exporter.shutdown()
  await client.transport.close()
}

const loadModules = () =>
  Promise.all([
    import('@opentelemetry/otlp-exporter-base'),
    import('@opentelemetry/otlp-exporter-base/node-http'),
    import('./generation-span.ts'),
    import('./sliced-spans.ts'),
    import('./otlp-http-transport.ts'),
  ])

/**
 * What OTLPTraceExporter (exporter-trace-otlp-proto) calls its component in the exporter's own metrics.
 * It builds itself with `convertLegacyHttpOptions` too, which is marked deprecated for the packages' 2.0;
 * the dependency is pinned to 0.223.x.
 */
const componentType = 'otlp_http_span_exporter'

/**
 * The exporter's error, naming the HTTP status when the endpoint answered one it does not retry
 * (OTLPExporterError carries it as `code`; retried statuses end without one).
 */
function otlpFailure(error: Error | undefined): Error {
  if (error === undefined) return new Error('OTLP export failed')
  const status = 'code' in error && typeof error.code === 'number' ? error.code : undefined
  if (status === undefined) return error
  return new DestinationRefused(
    `OTLP endpoint answered HTTP ${status}${error.message === '' ? '' : ` (${error.message})`}`,
    status,
  )
}

export function createOtlpExporter(product: OtlpProduct): Exporter {
  const clients = new DestinationClients<OtlpClient>(closeClient)
  let modules: ReturnType<typeof loadModules> | undefined

  async function deliverMany(
    payloads: readonly OutboxPayload[],
    target: ExportTarget,
    context: ExportContext,
  ): Promise<void> {
    const otlp = otlpTargets[product](target.config)
    await assertEgressAllowed(otlp.url, context.egress)
    const [
      { OTLPExporterBase, createOtlpNetworkExportDelegate },
      { convertLegacyHttpOptions, createOtlpHttpExporterMetrics },
      { generationResource, generationSpan },
      sliced,
      { UndiciOtlpTransport, RetryingOtlpTransport },
    ] = await (modules ??= loadModules())
    const headers = { ...otlp.headers, ...(target.config.headers ?? {}) }
    const settings = JSON.stringify([otlp.url, headers, otlp.resource ?? null, context.timeoutMs])
    const client = clients.get(target.destinationId, settings, () => {
      const options = convertLegacyHttpOptions(
        { url: otlp.url, headers, timeoutMillis: context.timeoutMs },
        'TRACES',
        'v1/traces',
        { 'Content-Type': 'application/x-protobuf' },
      )
      const transport = new RetryingOtlpTransport(new UndiciOtlpTransport(options))
      const metrics = createOtlpHttpExporterMetrics(componentType, sliced.slicedSpansMetrics, options.url, undefined)
      const delegate = createOtlpNetworkExportDelegate(options, sliced.slicedSpansSerializer, metrics, transport)
      return { exporter: new OTLPExporterBase(delegate), resource: generationResource(otlp.resource), transport }
    })
    const spans = await sliced.encodeInSlices(payloads, (payload) => generationSpan(payload.record, client.resource))
    const result = await new Promise<ExportResult>((resolve) => client.exporter.export(spans, resolve))
    if (result.code !== 0) throw otlpFailure(result.error)
  }

  return {
    deliver: (payload, target, context) => deliverMany([payload], target, context),
    deliverMany,
    release: (destinationId) => clients.release(destinationId),
    close: () => clients.closeAll(),
  }
}
