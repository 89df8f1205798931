// Spans encoded a slice at a time: the joined slices are one valid ExportTraceServiceRequest (read by
// the independent decoder of the tests, not by OpenTelemetry), every span in order, and the event loop
// runs between two slices.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { encodeInSlices, slicedSpansSerializer, spansPerSlice } from '../../src/observability/exporters/sliced-spans.ts'
import { generationResource, generationSpan } from '../../src/observability/exporters/generation-span.ts'
import type { DestinationRecord } from '../../src/observability/destination-record.ts'
import { countOtlpSpans, decodeOtlpTraces } from './support/decode-otlp-traces.ts'

function record(index: number): DestinationRecord {
  const hex = index.toString(16).padStart(2, '0')
  return {
    id: `gen-${index}`,
    trace_id: hex.repeat(16),
    span_id: hex.repeat(8),
    request_id: `req-${index}`,
    workspace_id: 'ws-1',
    api_key_hash: 'ab'.repeat(32),
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    started_at: '2026-11-25T10:00:00.000Z',
    ended_at: '2026-11-25T10:00:00.250Z',
    latency_ms: 250,
    time_to_first_token_ms: null,
    usage: {
      prompt_tokens: index,
      completion_tokens: 2,
      total_tokens: index + 2,
      cached_tokens: 0,
      reasoning_tokens: 0,
    },
    finish_reason: 'stop',
    session_id: null,
  }
}

test('slices joined are one request holding every span, in order, with the resource on each', async () => {
  const records = Array.from({ length: 2 * spansPerSlice + 3 }, (_, index) => record(index + 1))
  const resource = generationResource({ 'deployment.environment': 'test' })
  const sliced = await encodeInSlices(records, (item) => generationSpan(item, resource))
  assert.equal(sliced.slices.length, 3)
  assert.equal(sliced.spanCount, records.length)
  const body = slicedSpansSerializer.serializeRequest(sliced)
  assert.ok(body !== undefined)
  const spans = decodeOtlpTraces(Buffer.from(body))
  assert.equal(
    countOtlpSpans(Buffer.from(body)),
    records.length,
    'the benchmark receiver counts what the full reader decodes',
  )
  assert.deepEqual(
    spans.map((span) => span.attributes['gen_ai.response.id']),
    records.map((item) => item.id),
  )
  assert.deepEqual(
    spans.map((span) => span.spanId),
    records.map((item) => item.span_id),
  )
  assert.equal(spans[spans.length - 1]!.attributes['gen_ai.usage.input_tokens'], records.length)
  for (const span of spans)
    assert.deepEqual(span.resource, { 'service.name': 'switchyard', 'deployment.environment': 'test' })
})

test('the event loop runs between two slices', async () => {
  const seen: string[] = []
  setImmediate(() => seen.push('other work'))
  await encodeInSlices(
    Array.from({ length: spansPerSlice + 1 }, (_, index) => record(index + 1)),
    (item) => {
      seen.push(item.id)
      return generationSpan(item, generationResource())
    },
  )
  assert.equal(seen.indexOf('other work'), spansPerSlice)
  assert.equal(seen.length, spansPerSlice + 2)
})

test('no records encode to no slices', async () => {
  const sliced = await encodeInSlices([], () => assert.fail('no span is built'))
  assert.deepEqual(sliced, { slices: [], spanCount: 0 })
})
