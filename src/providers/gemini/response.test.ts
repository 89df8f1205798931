import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../../domain/errors.ts'
import { parseGeminiResponse } from './response.ts'

test('parses thought, text and functionCall parts with thoughts and cached usage', () => {
  const result = parseGeminiResponse({
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            { text: 'Plan: ', thought: true },
            { text: 'call lookup', thought: true, thoughtSignature: 'sig1' },
            { text: 'Looking ' },
            { text: 'it up.' },
            { functionCall: { name: 'lookup', args: { q: 'x' } }, thoughtSignature: 'sig2' },
          ],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: 900,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 30,
      cachedContentTokenCount: 512,
      totalTokenCount: 950,
    },
    modelVersion: 'gemini-2.5-pro',
    responseId: 'resp-1',
  })
  assert.deepEqual(result, {
    id: 'resp-1',
    model: 'gemini-2.5-pro',
    output: [
      { type: 'reasoning', text: 'Plan: call lookup', signature: 'sig1', origin: 'gemini' },
      { type: 'text', text: 'Looking it up.' },
      { type: 'tool-call', id: 'call_resp-1_2', name: 'lookup', arguments: '{"q":"x"}', signature: 'sig2' },
    ],
    finish_reason: 'tool_calls',
    native_finish_reason: 'STOP',
    usage: {
      input_tokens: 900,
      output_tokens: 50,
      cached_input_tokens: 512,
      cache_write_tokens: 0,
      reasoning_tokens: 30,
      total_tokens: 950,
    },
  })
})

test('a blocked prompt is content_filter; an empty body is an upstream error', () => {
  const blocked = parseGeminiResponse({
    promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
    usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 },
  })
  assert.equal(blocked.finish_reason, 'content_filter')
  assert.deepEqual(blocked.output, [])
  assert.throws(() => parseGeminiResponse({}), GatewayError)
})
