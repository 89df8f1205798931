import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../../domain/errors.ts'
import { parseChatResponse } from './response.ts'

test('parses text, reasoning_content, tool calls and cached usage', () => {
  const result = parseChatResponse({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'gpt-4o-2024-08-06',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Let me check.',
          reasoning_content: 'Need weather.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: {
      prompt_tokens: 1200,
      completion_tokens: 40,
      total_tokens: 1240,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 12 },
    },
  })
  assert.deepEqual(result, {
    id: 'chatcmpl-1',
    model: 'gpt-4o-2024-08-06',
    output: [
      { type: 'reasoning', text: 'Need weather.', origin: 'openai-chat' },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ],
    finish_reason: 'tool_calls',
    native_finish_reason: 'tool_calls',
    usage: {
      input_tokens: 1200,
      output_tokens: 40,
      cached_input_tokens: 1024,
      cache_write_tokens: 0,
      reasoning_tokens: 12,
      total_tokens: 1240,
    },
  })
})

test('a body without choices is an upstream error', () => {
  assert.throws(
    () => parseChatResponse({ id: 'x', choices: [] }),
    (error: unknown) => error instanceof GatewayError && error.kind === 'upstream_error',
  )
  assert.throws(() => parseChatResponse(null), GatewayError)
})

test("carries choices[0].logprobs.content with each position's top_logprobs; absent when the upstream sends null", () => {
  const body = (logprobs: unknown) => ({
    id: 'c',
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: 'A' }, logprobs, finish_reason: 'stop' }],
  })
  const result = parseChatResponse(
    body({
      content: [
        {
          token: 'A',
          logprob: -0.1,
          bytes: [65],
          top_logprobs: [
            { token: 'A', logprob: -0.1, bytes: [65] },
            { token: 'B', logprob: -2.5, bytes: [66] },
          ],
        },
      ],
    }),
  )
  assert.deepEqual(result.logprobs, [
    {
      token: 'A',
      logprob: -0.1,
      top_logprobs: [
        { token: 'A', logprob: -0.1 },
        { token: 'B', logprob: -2.5 },
      ],
    },
  ])
  assert.equal('logprobs' in parseChatResponse(body(null)), false)
})
