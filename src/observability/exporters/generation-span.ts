// A DestinationRecord as one OpenTelemetry span following the GenAI semantic conventions
// (gen_ai.* attributes); bodies go in gen_ai.input.messages / gen_ai.output.messages only when the
// record carries them (never under privacy_mode).
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime } from '@opentelemetry/api'
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources'
import type { DestinationRecord } from '../destination-record.ts'
import type { OtlpSpan } from './otlp-trace-encoding.ts'

function toHrTime(iso: string): HrTime {
  const millis = Date.parse(iso)
  return [Math.floor(millis / 1000), (millis % 1000) * 1e6]
}

function optionalAttributes(record: DestinationRecord): Attributes {
  const attributes: Attributes = {}
  if (record.session_id !== null) attributes['gen_ai.conversation.id'] = record.session_id
  if (record.time_to_first_token_ms !== null)
    attributes['gen_ai.response.time_to_first_chunk'] = record.time_to_first_token_ms / 1000
  if (record.cost !== undefined) attributes['gen_ai.usage.cost'] = record.cost
  if (record.cost_allocation !== undefined) {
    for (const [kind, usd] of Object.entries(record.cost_allocation))
      attributes[`openrouter.cost_allocation.${kind}`] = usd
  }
  if (record.user !== undefined && record.user !== null) attributes['user.id'] = record.user
  if (record.api_key_name !== undefined) attributes['openrouter.api_key_name'] = record.api_key_name
  if (record.request_context !== undefined) {
    for (const [name, value] of Object.entries(record.request_context.headers))
      attributes[`http.request.header.${name}`] = value
    for (const [name, value] of Object.entries(record.request_context.trace ?? {})) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        attributes[`openrouter.trace.${name}`] = value
    }
  }
  if (record.input !== undefined)
    attributes['gen_ai.input.messages'] = JSON.stringify(
      record.input.messages.map((message) => ({
        role: message.role,
        parts: [{ type: 'text', content: message.content }],
      })),
    )
  if (record.output !== undefined) {
    attributes['gen_ai.output.messages'] = JSON.stringify([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: record.output.completion }],
        finish_reason: record.finish_reason ?? 'stop',
      },
    ])
  }
  return attributes
}

export function generationAttributes(record: DestinationRecord): Attributes {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.system': record.provider,
    'gen_ai.provider.name': record.provider,
    'gen_ai.request.model': record.model,
    'gen_ai.response.model': record.model,
    'gen_ai.response.id': record.id,
    'gen_ai.usage.input_tokens': record.usage.prompt_tokens,
    'gen_ai.usage.output_tokens': record.usage.completion_tokens,
    'gen_ai.usage.cache_read.input_tokens': record.usage.cached_tokens,
    'gen_ai.usage.reasoning.output_tokens': record.usage.reasoning_tokens,
    'gen_ai.response.finish_reasons': record.finish_reason === null ? [] : [record.finish_reason],
    'openrouter.request_id': record.request_id,
    'openrouter.workspace_id': record.workspace_id,
    'openrouter.api_key_hash': record.api_key_hash,
    ...optionalAttributes(record),
  }
}

/** The resource of a destination's spans: build it once per destination, so each encoded slice of a batch is one ResourceSpans. */
export function generationResource(resourceAttributes: Attributes = {}): Resource {
  return resourceFromAttributes({ 'service.name': 'switchyard', ...resourceAttributes })
}

const scope = { name: 'switchyard.observability', version: '1' }

export function generationSpan(record: DestinationRecord, resource: Resource): OtlpSpan {
  return {
    name: `chat ${record.model}`,
    kind: SpanKind.CLIENT,
    traceId: record.trace_id,
    spanId: record.span_id,
    traceFlags: TraceFlags.SAMPLED,
    startTime: toHrTime(record.started_at),
    endTime: toHrTime(record.ended_at),
    status: { code: record.finish_reason === 'error' ? SpanStatusCode.ERROR : SpanStatusCode.OK },
    attributes: generationAttributes(record),
    resource,
    instrumentationScope: scope,
  }
}
