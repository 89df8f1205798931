import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../../domain/errors.ts'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import { buildAnthropicRequest, defaultMaxTokens } from './request.ts'

const call: CanonicalCall = {
  model: 'claude-sonnet-4-5',
  stream: true,
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'developer', content: 'Use tools.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather?' },
        { type: 'image', source: 'url', url: 'data:image/jpeg;base64,/9j/' },
      ],
    },
    {
      role: 'assistant',
      content: 'Checking.',
      reasoning: [
        { type: 'reasoning', text: 'think', signature: 'sig', origin: 'anthropic' },
        { type: 'reasoning', text: '', encrypted_content: 'opaque', redacted: true, origin: 'anthropic' },
        { type: 'reasoning', text: 'foreign', encrypted_content: 'x', origin: 'openai-responses' },
      ],
      tool_calls: [
        { id: 'toolu_1', name: 'weather', arguments: '{"city":"Oslo"}' },
        { id: 'toolu_2', name: 'time', arguments: '' },
      ],
    },
    { role: 'tool', tool_call_id: 'toolu_1', content: 'rain' },
    { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: 'noon' }] },
  ],
  tools: [
    { type: 'function', name: 'weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
  ],
  tool_choice: 'required',
  parallel_tool_calls: false,
  max_output_tokens: 2000,
  temperature: 0.5,
  top_k: 40,
  stop: ['###'],
  user: 'u-1',
  reasoning: { effort: 'low' },
  seed: 1,
}

test('builds a Messages request: system joined, tool results merged into one user turn, thinking budget', () => {
  const request = buildAnthropicRequest(call)
  assert.equal(request.path, '/v1/messages')
  assert.deepEqual(request.headers, { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' })
  assert.deepEqual(request.body, {
    model: 'claude-sonnet-4-5',
    max_tokens: 2000,
    system: 'You are terse.\n\nUse tools.',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'think', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'time', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'rain' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'noon' }] },
        ],
      },
    ],
    temperature: 0.5,
    top_k: 40,
    stop_sequences: ['###'],
    metadata: { user_id: 'u-1' },
    thinking: { type: 'enabled', budget_tokens: 2048 },
    stream: true,
    tools: [{ name: 'weather', description: 'Weather', input_schema: { type: 'object', properties: {} } }],
    tool_choice: { type: 'any', disable_parallel_tool_use: true },
  })
})

test('defaults max_tokens, omits tool_choice and stream when not asked', () => {
  const request = buildAnthropicRequest({ model: 'c', stream: false, messages: [{ role: 'user', content: 'hi' }] })
  assert.deepEqual(request.body, {
    model: 'c',
    max_tokens: defaultMaxTokens,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  })
})

test('tool call arguments that are not JSON are refused as an invalid request', () => {
  const bad: CanonicalCall = {
    model: 'c',
    stream: false,
    messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 't', name: 'f', arguments: '{oops' }] }],
  }
  assert.throws(
    () => buildAnthropicRequest(bad),
    (error: unknown) => error instanceof GatewayError && error.kind === 'invalid_request',
  )
})

test('a json_schema response_format becomes output_config.format; json_object and text send none', () => {
  const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
  const base: CanonicalCall = { model: 'm', stream: false, messages: [{ role: 'user', content: 'A person' }] }
  const structured = buildAnthropicRequest({
    ...base,
    response_format: { type: 'json_schema', name: 'person', schema, strict: true },
  }).body as Record<string, unknown>
  assert.deepEqual(structured.output_config, { format: { type: 'json_schema', schema } })
  for (const format of [{ type: 'json_object' }, { type: 'text' }] as const)
    assert.equal('output_config' in buildAnthropicRequest({ ...base, response_format: format }).body, false)
})
