import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import { buildGeminiRequest } from './request.ts'

const call: CanonicalCall = {
  model: 'models/gemini-2.5-flash',
  stream: true,
  messages: [
    { role: 'system', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is it?' },
        { type: 'image', source: 'url', url: 'https://example.com/cat.PNG' },
      ],
    },
    {
      role: 'assistant',
      content: '',
      reasoning: [{ type: 'reasoning', text: 'thinking', signature: 'th-sig', origin: 'gemini' }],
      tool_calls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"cat"}', signature: 'fc-sig' }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'a cat' },
    { role: 'user', content: 'Thanks' },
  ],
  tools: [
    {
      type: 'function',
      name: 'lookup',
      description: 'Search',
      parameters: { type: 'object', additionalProperties: false },
    },
  ],
  tool_choice: { name: 'lookup' },
  max_output_tokens: 256,
  temperature: 0.1,
  top_k: 3,
  stop: ['x'],
  response_format: { type: 'json_schema', name: 'r', schema: { type: 'object' } },
  reasoning: { max_tokens: 1024 },
}

test('builds a streamGenerateContent request', () => {
  const request = buildGeminiRequest(call)
  assert.equal(request.path, '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse')
  assert.deepEqual(request.headers, { 'content-type': 'application/json' })
  assert.deepEqual(request.body, {
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [
      {
        role: 'user',
        parts: [
          { text: 'What is it?' },
          { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/cat.PNG' } },
        ],
      },
      {
        role: 'model',
        parts: [
          { text: 'thinking', thought: true, thoughtSignature: 'th-sig' },
          { functionCall: { name: 'lookup', args: { q: 'cat' } }, thoughtSignature: 'fc-sig' },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'lookup', response: { result: 'a cat' } } }, { text: 'Thanks' }],
      },
    ],
    tools: [
      {
        functionDeclarations: [
          {
            name: 'lookup',
            description: 'Search',
            parametersJsonSchema: { type: 'object', additionalProperties: false },
          },
        ],
      },
    ],
    toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } },
    generationConfig: {
      maxOutputTokens: 256,
      temperature: 0.1,
      topK: 3,
      stopSequences: ['x'],
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
      thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
    },
  })
})

test('a non-streaming call uses generateContent; reasoning off sets a zero budget', () => {
  const request = buildGeminiRequest({
    model: 'gemini-2.5-flash',
    stream: false,
    messages: [{ role: 'user', content: 'hi' }],
    reasoning: { enabled: false },
  })
  assert.equal(request.path, '/v1beta/models/gemini-2.5-flash:generateContent')
  assert.deepEqual(request.body, {
    contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
  })
})
