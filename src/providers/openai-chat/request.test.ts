import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import { buildChatRequest } from './request.ts'

const call: CanonicalCall = {
  model: 'gpt-4o-mini',
  stream: true,
  messages: [
    { role: 'developer', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image', source: 'base64', media_type: 'image/png', data: 'iVBOR' },
      ],
    },
    {
      role: 'assistant',
      content: '',
      reasoning: [{ type: 'reasoning', text: 'hidden', origin: 'anthropic' }],
      tool_calls: [{ id: 'call_1', name: 'look', arguments: '{"x":1}' }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'a cat' },
  ],
  tools: [{ type: 'function', name: 'look', description: 'Look', parameters: { type: 'object' } }],
  tool_choice: { name: 'look' },
  parallel_tool_calls: false,
  max_output_tokens: 100,
  temperature: 0.2,
  top_k: 5,
  stop: ['END'],
  seed: 7,
  response_format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
  reasoning: { effort: 'low' },
  user: 'user-1',
  extra: { logit_bias: { '50256': -100 } },
}

test('builds a Chat Completions request with usage in the stream', () => {
  const request = buildChatRequest(call)
  assert.equal(request.path, '/chat/completions')
  assert.deepEqual(request.headers, { 'content-type': 'application/json' })
  assert.deepEqual(request.body, {
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"x":1}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'a cat' },
    ],
    max_completion_tokens: 100,
    temperature: 0.2,
    seed: 7,
    stop: ['END'],
    user: 'user-1',
    tools: [
      {
        type: 'function',
        function: { name: 'look', description: 'Look', parameters: { type: 'object' }, strict: undefined },
      },
    ],
    tool_choice: { type: 'function', function: { name: 'look' } },
    parallel_tool_calls: false,
    response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
    reasoning_effort: 'low',
    stream: true,
    stream_options: { include_usage: true },
    logit_bias: { '50256': -100 },
  })
})

test('sends no stream fields when not streaming', () => {
  const request = buildChatRequest({ model: 'local', stream: false, messages: [{ role: 'user', content: 'hi' }] })
  assert.deepEqual(request.headers, { 'content-type': 'application/json' })
  assert.deepEqual(request.body, { model: 'local', messages: [{ role: 'user', content: 'hi' }] })
})
