import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../../domain/errors.ts'
import { createOpenAiChatDialect } from './openai-chat-dialect.ts'

const dialect = createOpenAiChatDialect()
const decode = (fields: Record<string, unknown>) =>
  dialect.decode({ model: 'acme/fast-1', messages: [{ role: 'user', content: 'Hi' }], ...fields })

function assertRefused(fields: Record<string, unknown>, pattern: RegExp): void {
  assert.throws(
    () => decode(fields),
    (error: unknown) =>
      error instanceof GatewayError && error.kind === 'invalid_request' && pattern.test(error.message),
  )
}

test('every message role and content form decodes; tool results are named after their call', () => {
  const decoded = decode({
    messages: [
      { role: 'system', content: 'Sys.' },
      { role: 'developer', content: [{ type: 'text', text: 'Dev.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'See' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA', detail: 'high' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        reasoning: 'Thinking',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'done' },
    ],
  })
  assert.deepEqual(decoded.call.messages, [
    { role: 'system', content: 'Sys.' },
    { role: 'developer', content: 'Dev.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'See' },
        { type: 'image', source: 'url', url: 'data:image/png;base64,AAA', detail: 'high' },
      ],
    },
    {
      role: 'assistant',
      content: '',
      reasoning: [{ type: 'reasoning', text: 'Thinking', origin: 'openai-chat' }],
      tool_calls: [{ id: 'call_1', name: 'f', arguments: '{}' }],
    },
    { role: 'tool', tool_call_id: 'call_1', name: 'f', content: 'done' },
  ])
})

test('reasoning_details restore origin, signature, summaries and encrypted content', () => {
  const decoded = decode({
    messages: [
      {
        role: 'assistant',
        content: 'ok',
        reasoning_details: [
          { type: 'reasoning.text', text: 'A', signature: 'sig', format: 'anthropic-claude-v1' },
          { type: 'reasoning.encrypted', data: 'red', format: 'anthropic-claude-v1' },
          { type: 'reasoning.summary', summary: 'S', id: 'rs_1', format: 'openai-responses-v1' },
          { type: 'reasoning.encrypted', data: 'enc', id: 'rs_1', format: 'openai-responses-v1' },
        ],
      },
    ],
  })
  assert.deepEqual(decoded.call.messages[0], {
    role: 'assistant',
    content: 'ok',
    reasoning: [
      { type: 'reasoning', text: 'A', signature: 'sig', origin: 'anthropic' },
      { type: 'reasoning', text: '', encrypted_content: 'red', redacted: true, origin: 'anthropic' },
      { type: 'reasoning', text: 'S', id: 'rs_1', origin: 'openai-responses', encrypted_content: 'enc' },
    ],
  })
})

test('call fields: tools, tool_choice, response_format, limits, sampling, stop, logprobs, reasoning', () => {
  const decoded = decode({
    stream: true,
    tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    tool_choice: { type: 'function', function: { name: 'f' } },
    response_format: { type: 'json_schema', json_schema: { name: 'o', schema: { type: 'object' }, strict: true } },
    max_tokens: 50,
    max_completion_tokens: 60,
    temperature: 1,
    top_k: 40,
    seed: 7,
    stop: 'END',
    logprobs: true,
    top_logprobs: 2,
    reasoning_effort: 'low',
  })
  const call = decoded.call
  assert.deepEqual(
    [call.max_output_tokens, call.stop, call.tool_choice, call.reasoning, call.stream],
    [60, ['END'], { name: 'f' }, { effort: 'low' }, true],
  )
  assert.deepEqual(call.response_format, { type: 'json_schema', name: 'o', schema: { type: 'object' }, strict: true })
  assert.deepEqual([...decoded.usedParameters].sort(), [
    'logprobs',
    'max_tokens',
    'reasoning',
    'response_format',
    'seed',
    'stop',
    'structured_outputs',
    'temperature',
    'tool_choice',
    'tools',
    'top_k',
    'top_logprobs',
  ])
  assert.deepEqual(decode({ reasoning: { max_tokens: 2000 }, reasoning_effort: 'high' }).call.reasoning, {
    max_tokens: 2000,
  })
  assert.deepEqual(decode({ stop: ['a', 'b'] }).call.stop, ['a', 'b'])
})

test('OpenRouter options: models, provider, session_id, user, transforms, route, plugins, metadata', () => {
  const decoded = decode({
    models: ['b/y'],
    provider: { order: ['acme'], allow_fallbacks: false },
    session_id: 's',
    user: 'u',
    transforms: ['middle-out'],
    route: 'fallback',
    plugins: [{ id: 'web' }],
    metadata: { a: 'b' },
  })
  assert.deepEqual(decoded.models, ['acme/fast-1', 'b/y'])
  assert.deepEqual(decoded.options, {
    provider: { order: ['acme'], allow_fallbacks: false },
    session_id: 's',
    user: 'u',
    metadata: { a: 'b' },
    plugins: [{ id: 'web' }],
    route: 'fallback',
    max_tool_calls: 30,
    transforms: ['middle-out'],
  })
})

test('limits: session_id and user 256/257, metadata 16/17 pairs, n above 1, empty messages, unknown role', () => {
  decode({ session_id: 's'.repeat(256), user: 'u'.repeat(256) })
  assertRefused({ session_id: 's'.repeat(257) }, /^session_id: .*256/)
  assertRefused({ user: 'u'.repeat(257) }, /^user: .*256/)
  assertRefused(
    { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`k${index}`, 'v'])) },
    /^metadata: /,
  )
  assertRefused({ n: 2 }, /^n: /)
  assertRefused({ messages: [] }, /^messages: /)
  assertRefused({ messages: [{ role: 'robot', content: 'x' }] }, /^messages\[0\]\.role: must be one of/)
  assertRefused({ messages: [{ role: 'tool', content: 'x' }] }, /^messages\[0\]\.tool_call_id: is required/)
})
