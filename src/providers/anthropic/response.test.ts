import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../../domain/errors.ts'
import { parseAnthropicResponse } from './response.ts'

test('parses thinking, text and tool_use blocks and adds cache counts to input tokens', () => {
  const result = parseAnthropicResponse({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content: [
      { type: 'thinking', thinking: 'Hmm.', signature: 'sig==' },
      { type: 'redacted_thinking', data: 'blob' },
      { type: 'text', text: 'Calling.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Rome' } },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 30, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200 },
  })
  assert.deepEqual(result, {
    id: 'msg_1',
    model: 'claude-sonnet-4-5-20250929',
    output: [
      { type: 'reasoning', text: 'Hmm.', signature: 'sig==', origin: 'anthropic' },
      { type: 'reasoning', text: '', encrypted_content: 'blob', redacted: true, origin: 'anthropic' },
      { type: 'text', text: 'Calling.' },
      { type: 'tool-call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Rome"}' },
    ],
    finish_reason: 'tool_calls',
    native_finish_reason: 'tool_use',
    usage: {
      input_tokens: 1210,
      output_tokens: 30,
      cached_input_tokens: 1000,
      cache_write_tokens: 200,
      reasoning_tokens: 0,
      total_tokens: 1240,
    },
  })
})

test('a body without content is an upstream error', () => {
  assert.throws(() => parseAnthropicResponse({ type: 'error' }), GatewayError)
})
