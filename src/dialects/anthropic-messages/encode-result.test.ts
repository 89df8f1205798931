import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { CanonicalResult } from '../../domain/inference/result.ts'
import { makeUsage } from '../../domain/inference/usage.ts'
import type { EncodeContext } from '../dialect.ts'
import { encodeMessagesResult } from './encode-result.ts'

const context: EncodeContext = {
  generationId: 'gen-3',
  model: 'acme/claude',
  provider: 'acme',
  createdAt: 100,
  costUsd: 0.1,
  isByok: false,
}
const usage = makeUsage({ input_tokens: 100, output_tokens: 20, cached_input_tokens: 60, cache_write_tokens: 10 })
const result = (fields: Partial<CanonicalResult>): CanonicalResult => ({
  id: 'up',
  model: 'claude',
  output: [],
  finish_reason: 'stop',
  usage,
  ...fields,
})

test('a message with text, thinking, redacted thinking and tool_use blocks; usage excludes cached input', () => {
  const body = encodeMessagesResult(
    result({
      finish_reason: 'tool_calls',
      output: [
        { type: 'reasoning', text: 'Plan', signature: 'sig', origin: 'anthropic' },
        { type: 'reasoning', text: '', encrypted_content: 'opaque', redacted: true, origin: 'anthropic' },
        { type: 'text', text: 'Calling.' },
        { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{"a":1}' },
      ],
    }),
    context,
  )
  assert.deepEqual(body, {
    id: 'gen-3',
    type: 'message',
    role: 'assistant',
    model: 'acme/claude',
    content: [
      { type: 'thinking', thinking: 'Plan', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Calling.' },
      { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 30, output_tokens: 20, cache_read_input_tokens: 60, cache_creation_input_tokens: 10 },
    provider: 'acme',
  })
})

test('stop reasons: length -> max_tokens, native stop_sequence kept, content_filter -> refusal', () => {
  const reason = (fields: Partial<CanonicalResult>) => encodeMessagesResult(result(fields), context).stop_reason
  assert.deepEqual(
    [
      reason({ finish_reason: 'length' }),
      reason({ native_finish_reason: 'stop_sequence' }),
      reason({ finish_reason: 'content_filter' }),
      reason({}),
    ],
    ['max_tokens', 'stop_sequence', 'refusal', 'end_turn'],
  )
})

test('tool arguments that are not a JSON object become an empty input', () => {
  const body = encodeMessagesResult(
    result({ output: [{ type: 'tool-call', id: 't', name: 'f', arguments: '{"a":' }] }),
    context,
  )
  assert.deepEqual((body.content as Record<string, unknown>[])[0]?.input, {})
})
