import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { CanonicalResult } from '../../domain/inference/result.ts'
import { makeUsage } from '../../domain/inference/usage.ts'
import type { EncodeContext } from '../dialect.ts'
import { encodeChatResult } from './encode-result.ts'

const context: EncodeContext = {
  generationId: 'gen-2',
  model: 'acme/fast-1',
  provider: 'acme',
  createdAt: 100,
  costUsd: 0.25,
  isByok: false,
}
const usage = makeUsage({ input_tokens: 10, output_tokens: 5, cached_input_tokens: 3, reasoning_tokens: 1 })
const result = (fields: Partial<CanonicalResult>): CanonicalResult => ({
  id: 'up',
  model: 'fast-1',
  output: [],
  finish_reason: 'stop',
  usage,
  ...fields,
})

test('text: one choice with content, finish reasons and usage with cost', () => {
  assert.deepEqual(
    encodeChatResult(result({ output: [{ type: 'text', text: 'Hi' }], native_finish_reason: 'end_turn' }), context),
    {
      id: 'gen-2',
      object: 'chat.completion',
      created: 100,
      model: 'acme/fast-1',
      provider: 'acme',
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi', refusal: null, reasoning: null },
          logprobs: null,
          finish_reason: 'stop',
          native_finish_reason: 'end_turn',
        },
      ],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 3, cache_write_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 1 },
        cost: 0.25,
        is_byok: false,
      },
    },
  )
})

test('tool calls and reasoning: null content, tool_calls, reasoning text and details with the origin format', () => {
  const body = encodeChatResult(
    result({
      finish_reason: 'tool_calls',
      output: [
        { type: 'reasoning', text: 'Plan', signature: 'sig', origin: 'anthropic' },
        { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{"a":1}' },
      ],
    }),
    { ...context, metadata: { attempt: 1 } },
  )
  const choice = (body.choices as Record<string, unknown>[])[0] as {
    message: Record<string, unknown>
    finish_reason: string
  }
  assert.equal(choice.finish_reason, 'tool_calls')
  assert.deepEqual(choice.message, {
    role: 'assistant',
    content: null,
    refusal: null,
    reasoning: 'Plan',
    reasoning_details: [
      { type: 'reasoning.text', text: 'Plan', signature: 'sig', format: 'anthropic-claude-v1', index: 0 },
    ],
    tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
  })
  assert.deepEqual(body.openrouter_metadata, { attempt: 1 })
})

test('finish reasons map to the chat vocabulary: length, content_filter, error, other -> stop', () => {
  const reasons = (['length', 'content_filter', 'error', 'other'] as const).map(
    (finish) =>
      (encodeChatResult(result({ finish_reason: finish }), context).choices as { finish_reason: string }[])[0]
        ?.finish_reason,
  )
  assert.deepEqual(reasons, ['length', 'content_filter', 'error', 'stop'])
})
