// Switchyard's OTLP trace encoding writes the bytes OpenTelemetry's own ProtobufTraceSerializer writes
// for the same spans: every attribute type, strings past one and two length bytes, non-ASCII text,
// times past 2^53 nanoseconds, and spans grouped by resource and scope.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api'
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { encodeTraceRequest, type OtlpSpan } from '../../src/observability/exporters/otlp-trace-encoding.ts'
import { generationResource, generationSpan } from '../../src/observability/exporters/generation-span.ts'
import type { DestinationRecord } from '../../src/observability/destination-record.ts'
import { decodeOtlpTraces } from './support/decode-otlp-traces.ts'

/** The span type OpenTelemetry's serializer takes (sdk-trace's ReadableSpan). */
type ReadableSpan = Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0][number]

function readable(span: OtlpSpan): ReadableSpan {
  const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: span.traceFlags }
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => context,
    startTime: span.startTime,
    endTime: span.endTime,
    duration: [0, 0],
    status: span.status,
    attributes: span.attributes,
    links: [],
    events: [],
    ended: true,
    resource: span.resource as ReadableSpan['resource'],
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  }
}

function assertSameBytes(spans: readonly OtlpSpan[]): Buffer {
  const ours = encodeTraceRequest(spans)
  const theirs = ProtobufTraceSerializer.serializeRequest(spans.map(readable))
  assert.ok(theirs !== undefined)
  assert.deepEqual(ours, Buffer.from(theirs))
  return ours
}

const resource = resourceFromAttributes({ 'service.name': 'switchyard', 'deployment.environment': 'test' })
const scope = { name: 'switchyard.observability', version: '1' }

function span(attributes: Attributes, overrides: Partial<OtlpSpan> = {}): OtlpSpan {
  return {
    name: 'chat openai/gpt-4o-mini',
    kind: SpanKind.CLIENT,
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: 1,
    startTime: [1_764_000_000, 250_000_000],
    endTime: [1_764_000_001, 999_999_999],
    attributes,
    status: { code: SpanStatusCode.OK },
    resource,
    instrumentationScope: scope,
    ...overrides,
  }
}

test('every attribute type is written as OpenTelemetry writes it', () => {
  assertSameBytes([
    span({
      empty: '',
      ascii: 'gpt-4o-mini',
      accents: 'café crème',
      cjk: '你好，世界',
      emoji: 'hi 👋🏽 there',
      'lone surrogate': 'a\ud800b',
      'long ascii': 'x'.repeat(200),
      'sixty-four ascii': 'a'.repeat(64),
      'sixty-five ascii': 'a'.repeat(65),
      'ascii, then one accent': `${'a'.repeat(63)}é`,
      'forty ascii, then one emoji': `${'a'.repeat(40)}👋`,
      'long unicode': 'é'.repeat(100),
      'over two length bytes': 'y'.repeat(20_000),
      'forty-two units of emoji': '👋'.repeat(21),
      'forty-two units of three bytes': '€'.repeat(42),
      'forty-three units of three bytes': '€'.repeat(43),
      zero: 0,
      small: 12,
      'one byte boundary': 127,
      'two bytes': 128,
      'past 32 bits': 2 ** 32 + 5,
      'past 53 bits': 2 ** 60,
      negative: -1,
      'large negative': -(2 ** 40) - 7,
      double: 0.000123,
      'negative double': -2.5,
      'not a number': Number.NaN,
      'past int64': 2 ** 64,
      yes: true,
      no: false,
      strings: ['stop', 'length'],
      numbers: [1, 2.5, -3],
      booleans: [true, false],
      'with gaps': ['a', null, undefined, 'b'],
      'empty array': [],
      missing: undefined,
    }),
  ])
})

test('a status message, an error code, an unsampled trace and upper-case ids are written as OpenTelemetry writes them', () => {
  assertSameBytes([
    span(
      { a: 1 },
      {
        status: { code: SpanStatusCode.ERROR, message: 'upstream failed' },
        traceFlags: 0,
        traceId: '0AF7651916CD43DD8448EB211C80319C',
        spanId: 'B7AD6B7169203331',
        kind: SpanKind.INTERNAL,
      },
    ),
  ])
})

test('times past 2^53 nanoseconds and at the end of a second are exact', () => {
  assertSameBytes([
    span({}, { startTime: [4_102_444_800, 999_999_999], endTime: [18_000_000_000, 1] }),
    span({}, { startTime: [0, 0], endTime: [65_535, 999_999_999] }),
  ])
})

test('spans are grouped by resource and then by scope, in the order each first appears, with their schema URLs', () => {
  const schemaUrl = 'https://opentelemetry.io/schemas/1.26.0'
  const other = resourceFromAttributes({ 'service.name': 'other' }, { schemaUrl })
  const otherScope = { name: 'other.scope', schemaUrl }
  assertSameBytes([
    span({ n: 1 }),
    span({ n: 2 }, { resource: other }),
    span({ n: 3 }, { instrumentationScope: otherScope }),
    span({ n: 4 }),
    span({ n: 5 }, { resource: other, instrumentationScope: otherScope }),
  ])
})

test('a request past the reserved size grows and stays exact', () => {
  const big = Array.from({ length: 40 }, (_, index) => span({ index, text: `${index}`.repeat(3000) }))
  assertSameBytes(big)
})

const record: DestinationRecord = {
  id: 'gen-1',
  trace_id: '0af7651916cd43dd8448eb211c80319c',
  span_id: 'b7ad6b7169203331',
  request_id: 'req-1',
  workspace_id: 'ws-1',
  api_key_hash: 'ab'.repeat(32),
  model: 'openai/gpt-4o-mini',
  provider: 'openai',
  started_at: '2026-11-25T10:00:00.000Z',
  ended_at: '2026-11-25T10:00:00.250Z',
  latency_ms: 250,
  time_to_first_token_ms: 80,
  usage: { prompt_tokens: 12, completion_tokens: 50, total_tokens: 62, cached_tokens: 3, reasoning_tokens: 0 },
  finish_reason: 'stop',
  session_id: 'session-7',
  cost: 0.000112,
  cost_allocation: { prompt: 0.000012, completion: 0.0001, cached: 0, reasoning: 0 },
  user: 'user-9',
  api_key_name: 'Production',
  request_context: { headers: { 'x-title': 'App' }, trace: { trace_name: 'checkout', step: 2 } },
  input: { messages: [{ role: 'user', content: 'Say hello, ünïcödé 👋' }] },
  output: { completion: 'Hello! '.repeat(60), reasoning: null },
}

test("a generation's span with every optional attribute is written as OpenTelemetry writes it, and reads back", () => {
  const bytes = assertSameBytes([generationSpan(record, generationResource({ 'deployment.environment': 'prod' }))])
  const [decoded] = decodeOtlpTraces(bytes)
  assert.equal(decoded!.traceId, record.trace_id)
  assert.equal(decoded!.spanId, record.span_id)
  assert.equal(decoded!.attributes['gen_ai.usage.cost'], record.cost)
  assert.equal(decoded!.attributes['openrouter.trace.step'], 2)
  assert.equal(
    decoded!.attributes['gen_ai.output.messages'],
    JSON.stringify([
      { role: 'assistant', parts: [{ type: 'text', content: record.output!.completion }], finish_reason: 'stop' },
    ]),
  )
  assert.equal(decoded!.endTimeUnixNano - decoded!.startTimeUnixNano, 250_000_000n)
})

test('an id that is not hexadecimal keeps its length and writes zeros from the first bad digit', () => {
  const bytes = encodeTraceRequest([span({}, { spanId: 'b7ad6b71zz203331' })])
  const [decoded] = decodeOtlpTraces(bytes)
  assert.equal(decoded!.spanId, 'b7ad6b7100000000')
})

test('attribute names seen before, and more names than are kept, are written as OpenTelemetry writes them', () => {
  const many = Object.fromEntries(Array.from({ length: 1100 }, (_, index) => [`http.request.header.x-${index}`, index]))
  const first = assertSameBytes([span(many)])
  assert.deepEqual(assertSameBytes([span(many)]), first)
})
