import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { CanonicalResult } from '../../domain/inference/result.ts'
import { makeUsage } from '../../domain/inference/usage.ts'
import type { EncodeContext } from '../dialect.ts'
import { encodeResponsesResult } from './encode-result.ts'

const context: EncodeContext = {
  generationId: 'gen-1',
  model: 'acme/fast-1',
  provider: 'acme',
  createdAt: 100,
  completedAt: 101,
  costUsd: 0.5,
  isByok: true,
  echo: { instructions: 'Be brief.', metadata: { a: 'b' } },
}
const usage = makeUsage({ input_tokens: 10, output_tokens: 6, cached_input_tokens: 4, reasoning_tokens: 2 })
const result = (fields: Partial<CanonicalResult>): CanonicalResult => ({
  id: 'up',
  model: 'fast-1',
  output: [],
  finish_reason: 'stop',
  usage,
  ...fields,
})

test('text: a completed response with output_text, usage with cost and is_byok, and echoed fields', () => {
  const body = encodeResponsesResult(result({ output: [{ type: 'text', text: 'Hello' }] }), context)
  assert.deepEqual(body, {
    id: 'gen-1',
    object: 'response',
    created_at: 100,
    completed_at: 101,
    model: 'acme/fast-1',
    status: 'completed',
    output: [
      {
        id: 'msg_gen-1_0',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello', annotations: [], logprobs: [] }],
      },
    ],
    output_text: 'Hello',
    error: null,
    incomplete_details: null,
    instructions: 'Be brief.',
    metadata: { a: 'b' },
    usage: {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 6,
      output_tokens_details: { reasoning_tokens: 2 },
      total_tokens: 16,
      cost: 0.5,
      is_byok: true,
    },
  })
})

test('tool calls and reasoning become function_call and reasoning items; foreign proofs are sealed', () => {
  const body = encodeResponsesResult(
    result({
      finish_reason: 'tool_calls',
      output: [
        { type: 'reasoning', text: 'Hmm', signature: 'sig', origin: 'anthropic' },
        { type: 'reasoning', text: '', id: 'rs_9', encrypted_content: 'enc', origin: 'openai-responses' },
        { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"x":1}' },
      ],
    }),
    context,
  )
  const output = body.output as Record<string, unknown>[]
  assert.equal(output[0]?.id, 'rs_gen-1_0')
  assert.deepEqual(output[0]?.summary, [{ type: 'summary_text', text: 'Hmm' }])
  assert.match(String(output[0]?.encrypted_content), /^swy1:/)
  assert.deepEqual(output[1], { id: 'rs_9', type: 'reasoning', summary: [], encrypted_content: 'enc' })
  assert.deepEqual(output[2], {
    id: 'fc_gen-1_2',
    type: 'function_call',
    status: 'completed',
    call_id: 'call_1',
    name: 'f',
    arguments: '{"x":1}',
  })
  assert.equal(body.status, 'completed')
  assert.equal(body.output_text, '')
})

test('length and content_filter make an incomplete response with the reason', () => {
  assert.deepEqual(
    [
      encodeResponsesResult(result({ finish_reason: 'length' }), context),
      encodeResponsesResult(result({ finish_reason: 'content_filter' }), context),
    ].map((body) => [body.status, body.incomplete_details]),
    [
      ['incomplete', { reason: 'max_output_tokens' }],
      ['incomplete', { reason: 'content_filter' }],
    ],
  )
})

test('openrouter_metadata appears only when given', () => {
  assert.equal('openrouter_metadata' in encodeResponsesResult(result({}), context), false)
  assert.deepEqual(encodeResponsesResult(result({}), { ...context, metadata: { attempt: 1 } }).openrouter_metadata, {
    attempt: 1,
  })
})
