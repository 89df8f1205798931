// An OTLP export request encoded a few spans at a time. Encoding is most of an export's cost; a batch
// of 70-100 spans encoded at once by OpenTelemetry's serializer held the event loop for 0.5-2 ms, which
// the requests in flight then waited out. Here every `spansPerSlice` spans are encoded
// (otlp-trace-encoding.ts) as an ExportTraceServiceRequest of their own, the event loop runs between
// slices, and the slices are concatenated when the request is sent: protobuf reads concatenated
// messages as one message whose repeated fields are joined, so the body is one request holding one
// ResourceSpans per slice.
import {
  ProtobufTraceSerializer,
  type IExporterMetricsHelper,
  type IExportTraceServiceResponse,
  type ISerializer,
} from '@opentelemetry/otlp-transformer'
import { inSlices } from '../../store/batch-insert.ts'
import { encodeTraceRequest, type OtlpSpan } from './otlp-trace-encoding.ts'

export interface SlicedSpans {
  readonly slices: readonly Uint8Array[]
  readonly spanCount: number
}

/** With OpenTelemetry's serializer a slice held the event loop for 0.06 ms in a warm loop, 0.21 ms in a loaded gateway; it is a fraction of that now. */
export const spansPerSlice = 8

export async function encodeInSlices<T>(items: readonly T[], toSpan: (item: T) => OtlpSpan): Promise<SlicedSpans> {
  const slices: Uint8Array[] = []
  await inSlices(
    items,
    async (slice) => {
      slices.push(encodeTraceRequest(slice.map(toSpan)))
    },
    spansPerSlice,
  )
  return { slices, spanCount: items.length }
}

/** The exporter's serializer: the slices are already encoded, so serializing only joins them. */
export const slicedSpansSerializer: ISerializer<SlicedSpans, IExportTraceServiceResponse> = {
  serializeRequest: (request) => Buffer.concat(request.slices),
  deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
}

export const slicedSpansMetrics: IExporterMetricsHelper<SlicedSpans> = {
  name: 'span',
  countItems: (request) => request.spanCount,
}
