import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import { buildResponsesRequest } from './request.ts'

test('builds a stateless Responses request with reasoning carried as encrypted content', () => {
  const call: CanonicalCall = {
    model: 'gpt-5-mini',
    stream: true,
    messages: [
      { role: 'developer', content: 'Be exact.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', source: 'url', url: 'https://x/y.png', detail: 'high' },
        ],
      },
      {
        role: 'assistant',
        content: 'Checking.',
        reasoning: [
          { type: 'reasoning', id: 'rs_1', text: 'a\n\nb', encrypted_content: 'enc', origin: 'openai-responses' },
          { type: 'reasoning', text: 'claude', signature: 's', origin: 'anthropic' },
        ],
        tool_calls: [{ id: 'call_1', name: 'f', arguments: '{}' }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'done' },
    ],
    tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
    tool_choice: { name: 'f' },
    max_output_tokens: 500,
    temperature: 1,
    frequency_penalty: 0.5,
    response_format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true },
    reasoning: { effort: 'high', summary: 'auto' },
    service_tier: 'flex',
  }
  const request = buildResponsesRequest(call)
  assert.equal(request.path, '/responses')
  assert.deepEqual(request.body, {
    model: 'gpt-5-mini',
    input: [
      { type: 'message', role: 'developer', content: 'Be exact.' },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look' },
          { type: 'input_image', image_url: 'https://x/y.png', detail: 'high' },
        ],
      },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [
          { type: 'summary_text', text: 'a' },
          { type: 'summary_text', text: 'b' },
        ],
        encrypted_content: 'enc',
      },
      { type: 'message', role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'done' },
    ],
    max_output_tokens: 500,
    temperature: 1,
    service_tier: 'flex',
    text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
    reasoning: { effort: 'high', summary: 'auto' },
    include: ['reasoning.encrypted_content'],
    store: false,
    stream: true,
    tools: [{ type: 'function', name: 'f', description: undefined, parameters: { type: 'object' }, strict: false }],
    tool_choice: { type: 'function', name: 'f' },
  })
})

test('a plain call has no reasoning, include or stream fields', () => {
  const request = buildResponsesRequest({
    model: 'gpt-4.1',
    stream: false,
    messages: [{ role: 'user', content: 'hi' }],
  })
  assert.deepEqual(request.body, {
    model: 'gpt-4.1',
    input: [{ type: 'message', role: 'user', content: 'hi' }],
    store: false,
  })
})
