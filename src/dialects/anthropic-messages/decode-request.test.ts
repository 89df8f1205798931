import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../../domain/errors.ts'
import { createAnthropicMessagesDialect } from './anthropic-messages-dialect.ts'

const dialect = createAnthropicMessagesDialect()
const decode = (fields: Record<string, unknown>) =>
  dialect.decode({ model: 'acme/claude', max_tokens: 256, messages: [{ role: 'user', content: 'Hi' }], ...fields })

function assertRefused(fields: Record<string, unknown>, pattern: RegExp): void {
  assert.throws(
    () => decode(fields),
    (error: unknown) =>
      error instanceof GatewayError && error.kind === 'invalid_request' && pattern.test(error.message),
  )
}

test('system blocks, images, thinking, redacted thinking, tool_use and tool_result decode in order', () => {
  const decoded = decode({
    system: [
      { type: 'text', text: 'One.' },
      { type: 'text', text: 'Two.' },
    ],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
          { type: 'image', source: { type: 'url', url: 'https://x/i.png' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Hmm', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Calling.' },
          { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '42' }] },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ],
  })
  assert.deepEqual(decoded.call.messages, [
    { role: 'system', content: 'One.\n\nTwo.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'image', source: 'base64', media_type: 'image/png', data: 'AAA' },
        { type: 'image', source: 'url', url: 'https://x/i.png' },
      ],
    },
    {
      role: 'assistant',
      content: 'Calling.',
      reasoning: [
        { type: 'reasoning', text: 'Hmm', signature: 'sig', origin: 'anthropic' },
        { type: 'reasoning', text: '', encrypted_content: 'opaque', redacted: true, origin: 'anthropic' },
      ],
      tool_calls: [{ id: 'toolu_1', name: 'f', arguments: '{"a":1}' }],
    },
    { role: 'tool', tool_call_id: 'toolu_1', name: 'f', content: [{ type: 'text', text: '42' }] },
    { role: 'user', content: 'Thanks' },
  ])
})

test('call fields: max_tokens, tools, tool_choice, thinking, stop_sequences, sampling, metadata.user_id', () => {
  const decoded = decode({
    stream: true,
    tools: [{ name: 'f', description: 'F', input_schema: { type: 'object' } }],
    tool_choice: { type: 'any', disable_parallel_tool_use: true },
    thinking: { type: 'enabled', budget_tokens: 2048 },
    stop_sequences: ['END'],
    temperature: 0.5,
    top_k: 5,
    metadata: { user_id: 'end-user-1' },
  })
  const call = decoded.call
  assert.deepEqual(
    [
      call.max_output_tokens,
      call.tool_choice,
      call.parallel_tool_calls,
      call.reasoning,
      call.stop,
      call.user,
      call.stream,
    ],
    [256, 'required', false, { enabled: true, max_tokens: 2048 }, ['END'], 'end-user-1', true],
  )
  assert.deepEqual(call.tools, [{ type: 'function', name: 'f', description: 'F', parameters: { type: 'object' } }])
  assert.equal(decoded.options.user, 'end-user-1')
  assert.equal(decoded.options.metadata, undefined)
  assert.deepEqual(decode({ tool_choice: { type: 'tool', name: 'f' } }).call.tool_choice, { name: 'f' })
  assert.deepEqual(decode({ thinking: { type: 'disabled' } }).call.reasoning, { enabled: false })
})

test('OpenRouter extras: models, provider and session_id', () => {
  const decoded = decode({ models: ['b/y'], provider: { only: ['anthropic'] }, session_id: 's'.repeat(256) })
  assert.deepEqual(decoded.models, ['acme/claude', 'b/y'])
  assert.deepEqual(decoded.options.provider, { only: ['anthropic'] })
  assertRefused({ session_id: 's'.repeat(257) }, /^session_id: .*256/)
})

test('refusals: max_tokens missing, budget below 1024, unknown block, unknown tool_choice, temperature above 1', () => {
  assert.throws(
    () => dialect.decode({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    /max_tokens: is required/,
  )
  assertRefused({ thinking: { type: 'enabled', budget_tokens: 1023 } }, /^thinking\.budget_tokens: .*1024/)
  decode({ thinking: { type: 'enabled', budget_tokens: 1024 } })
  assertRefused(
    { messages: [{ role: 'user', content: [{ type: 'document' }] }] },
    /^messages\[0\]\.content\[0\]\.type: must be one of/,
  )
  assertRefused({ tool_choice: { type: 'sometimes' } }, /^tool_choice\.type: must be one of/)
  assertRefused({ temperature: 1.5 }, /^temperature: /)
})

test('thread and container: absent or null passes, any value is refused naming the field and the state not kept', () => {
  decode({ thread: null, container: null })
  assertRefused(
    { thread: 'thread_1' },
    /^thread is not supported: .*no server-side state.*whole conversation in `messages`/,
  )
  assertRefused({ thread: { id: 'thread_1' } }, /^thread is not supported/)
  assertRefused({ container: 'container_1' }, /^container .*not supported: .*no server-side state/)
  assertRefused({ container: { id: 'container_1', skills: [] } }, /^container /)
})

test('ignorable hints are not refused: diagnostics, an unknown extra field', () => {
  const decoded = decode({ diagnostics: { previous_message_id: 'msg_1' }, some_future_hint: true })
  assert.equal(decoded.call.max_output_tokens, 256)
})
