// An OTLP ExportTraceServiceRequest (opentelemetry/proto/collector/trace/v1) in protobuf, for the spans
// the OTLP destinations send. It writes the same bytes as @opentelemetry/otlp-transformer's
// ProtobufTraceSerializer for the same spans (the tests compare them), but that serializer writes each
// string a character at a time in JavaScript, twice (once to size the buffer): about 140 instructions
// per byte of span, more than a whole generation's bookkeeping. Here strings go through Buffer's native
// writer (protobuf-writer.ts). Spans with events, links or a parent are not written here: a generation's
// span has none.
import type { Attributes, AttributeValue, HrTime, SpanKind, SpanStatus } from '@opentelemetry/api'
import { ProtobufWriter } from './protobuf-writer.ts'

export interface OtlpResource {
  readonly attributes: Attributes
  readonly schemaUrl?: string
}

export interface OtlpScope {
  readonly name: string
  readonly version?: string
  readonly schemaUrl?: string
}

export interface OtlpSpan {
  readonly name: string
  readonly kind: SpanKind
  /** 32 hexadecimal digits. */
  readonly traceId: string
  /** 16 hexadecimal digits. */
  readonly spanId: string
  readonly traceFlags: number
  readonly startTime: HrTime
  readonly endTime: HrTime
  readonly attributes: Attributes
  readonly status: SpanStatus
  /** Spans that share the resource object (and then the scope object) go in one ResourceSpans (ScopeSpans). */
  readonly resource: OtlpResource
  readonly instrumentationScope: OtlpScope
}

const lengthDelimited = 2
const varintType = 0
const fixed64Type = 1
const fixed32Type = 5
const nanosPerSecond = 1_000_000_000
const twoTo32 = 0x1_0000_0000
const minInt64 = -(2 ** 63)
const maxInt64 = 2 ** 63
/** Span.flags: the trace flags, and that whether the parent is remote is known (it is not remote). */
const contextHasIsRemote = 0x100

/** A time as fixed64 nanoseconds since the epoch, exact past 2^53 (seconds are split into 16-bit halves). */
function writeTime(writer: ProtobufWriter, [seconds, nanos]: HrTime): void {
  const fromLow = (seconds & 0xffff) * nanosPerSecond
  const fromHigh = ((seconds / 0x10000) >>> 0) * nanosPerSecond
  const low = (fromLow >>> 0) + (((fromHigh & 0xffff) * 0x10000) >>> 0) + nanos
  const high = Math.floor(fromLow / twoTo32) + ((fromHigh / 0x10000) >>> 0) + Math.floor(low / twoTo32)
  writer.fixed64(low >>> 0, high >>> 0)
}

/** AnyValue's fields; a value of another type (null, undefined) is an empty AnyValue. */
function writeAnyValue(writer: ProtobufWriter, value: AttributeValue | null | undefined): void {
  if (typeof value === 'string') {
    writer.tag(1, lengthDelimited)
    writer.string(value)
  } else if (typeof value === 'boolean') {
    writer.tag(2, varintType)
    writer.varint(value ? 1 : 0)
  } else if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= minInt64 && value < maxInt64) {
      writer.tag(3, varintType)
      writer.varint(value)
    } else {
      writer.tag(4, fixed64Type)
      writer.double(value)
    }
  } else if (Array.isArray(value)) {
    writer.tag(5, lengthDelimited)
    const array = writer.begin()
    for (const item of value) {
      writer.tag(1, lengthDelimited)
      const itemStart = writer.begin()
      writeAnyValue(writer, item)
      writer.end(itemStart)
    }
    writer.end(array)
  }
}

/**
 * KeyValue's key field, encoded once per attribute name: a span's ~25 names are the same each time (a
 * few carry a header or trace field's name, so at most `keptKeys` are kept).
 */
const encodedKeys = new Map<string, Buffer>()
const keptKeys = 1024

function writeKey(writer: ProtobufWriter, key: string): void {
  let encoded = encodedKeys.get(key)
  if (encoded === undefined) {
    const keyWriter = new ProtobufWriter(key.length * 3 + 8)
    keyWriter.tag(1, lengthDelimited)
    keyWriter.string(key)
    encoded = Buffer.from(keyWriter.finish())
    if (encodedKeys.size < keptKeys) encodedKeys.set(key, encoded)
  }
  writer.raw(encoded)
}

/** Repeated KeyValue in `field`, in the object's own key order. */
function writeAttributes(writer: ProtobufWriter, attributes: Attributes, field: number): void {
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue
    writer.tag(field, lengthDelimited)
    const keyValue = writer.begin()
    writeKey(writer, key)
    writer.tag(2, lengthDelimited)
    const value = writer.begin()
    writeAnyValue(writer, attributes[key])
    writer.end(value)
    writer.end(keyValue)
  }
}

/** A string field proto3 leaves out when empty. */
function writeOptionalString(writer: ProtobufWriter, field: number, value: string | undefined): void {
  if (!value) return
  writer.tag(field, lengthDelimited)
  writer.string(value)
}

function writeZero(writer: ProtobufWriter, field: number): void {
  writer.tag(field, varintType)
  writer.varint(0)
}

function writeSpan(writer: ProtobufWriter, span: OtlpSpan): void {
  const start = writer.begin()
  writer.tag(1, lengthDelimited)
  writer.hexBytes(span.traceId)
  writer.tag(2, lengthDelimited)
  writer.hexBytes(span.spanId)
  writer.tag(5, lengthDelimited)
  writer.string(span.name)
  // SpanKind in the proto counts from 1 (0 is unspecified).
  writer.tag(6, varintType)
  writer.varint(span.kind + 1)
  writer.tag(7, fixed64Type)
  writeTime(writer, span.startTime)
  writer.tag(8, fixed64Type)
  writeTime(writer, span.endTime)
  writeAttributes(writer, span.attributes, 9)
  // dropped_attributes_count, dropped_events_count, dropped_links_count: none.
  writeZero(writer, 10)
  writeZero(writer, 12)
  writeZero(writer, 14)
  writer.tag(15, lengthDelimited)
  const status = writer.begin()
  writeOptionalString(writer, 2, span.status.message)
  writer.tag(3, varintType)
  writer.varint(span.status.code)
  writer.end(status)
  writer.tag(16, fixed32Type)
  writer.fixed32((span.traceFlags & 0xff) | contextHasIsRemote)
  writer.end(start)
}

function writeScopeSpans(writer: ProtobufWriter, spans: readonly OtlpSpan[]): void {
  const scope = spans[0]!.instrumentationScope
  const start = writer.begin()
  writer.tag(1, lengthDelimited)
  const scopeStart = writer.begin()
  writer.tag(1, lengthDelimited)
  writer.string(scope.name)
  writeOptionalString(writer, 2, scope.version)
  writer.end(scopeStart)
  for (const span of spans) {
    writer.tag(2, lengthDelimited)
    writeSpan(writer, span)
  }
  writeOptionalString(writer, 3, scope.schemaUrl)
  writer.end(start)
}

function writeResourceSpans(writer: ProtobufWriter, resource: OtlpResource, byScope: Map<OtlpScope, OtlpSpan[]>): void {
  const start = writer.begin()
  writer.tag(1, lengthDelimited)
  const resourceStart = writer.begin()
  writeAttributes(writer, resource.attributes, 1)
  writeZero(writer, 2)
  writer.end(resourceStart)
  for (const spans of byScope.values()) {
    writer.tag(2, lengthDelimited)
    writeScopeSpans(writer, spans)
  }
  writeOptionalString(writer, 3, resource.schemaUrl)
  writer.end(start)
}

/** Bytes reserved per span up front (a generation's span is 1-2 KB); the writer grows past it if needed. */
const bytesPerSpan = 2048

export function encodeTraceRequest(spans: readonly OtlpSpan[]): Buffer {
  const byResource = new Map<OtlpResource, Map<OtlpScope, OtlpSpan[]>>()
  for (const span of spans) {
    let byScope = byResource.get(span.resource)
    if (byScope === undefined) byResource.set(span.resource, (byScope = new Map()))
    const inScope = byScope.get(span.instrumentationScope)
    if (inScope === undefined) byScope.set(span.instrumentationScope, [span])
    else inScope.push(span)
  }
  const writer = new ProtobufWriter(spans.length * bytesPerSpan + 256)
  for (const [resource, byScope] of byResource) {
    writer.tag(1, lengthDelimited)
    writeResourceSpans(writer, resource, byScope)
  }
  return writer.finish()
}
