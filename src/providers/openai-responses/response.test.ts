import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../../domain/errors.ts'
import { parseResponsesResponse } from './response.ts'

test('parses reasoning, message and function_call items with cached and reasoning usage', () => {
  const result = parseResponsesResponse({
    id: 'resp_1',
    object: 'response',
    model: 'o4-mini',
    status: 'completed',
    output: [
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Plan' }], encrypted_content: 'enc' },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Calling', annotations: [] }],
      },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"a":1}', status: 'completed' },
      { type: 'web_search_call', id: 'ws_1', status: 'completed' },
    ],
    usage: {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 64 },
      output_tokens: 50,
      output_tokens_details: { reasoning_tokens: 30 },
      total_tokens: 150,
    },
  })
  assert.deepEqual(result, {
    id: 'resp_1',
    model: 'o4-mini',
    output: [
      { type: 'reasoning', id: 'rs_1', text: 'Plan', encrypted_content: 'enc', origin: 'openai-responses' },
      { type: 'text', text: 'Calling' },
      { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"a":1}' },
    ],
    finish_reason: 'tool_calls',
    native_finish_reason: 'completed',
    usage: {
      input_tokens: 100,
      output_tokens: 50,
      cached_input_tokens: 64,
      cache_write_tokens: 0,
      reasoning_tokens: 30,
      total_tokens: 150,
    },
  })
})

test('a body that is not a response is an upstream error', () => {
  assert.throws(() => parseResponsesResponse({ error: { message: 'x' } }), GatewayError)
})
