import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../../domain/errors.ts'
import { createOpenAiResponsesDialect } from './openai-responses-dialect.ts'

const dialect = createOpenAiResponsesDialect()
const decode = (fields: Record<string, unknown>) => dialect.decode({ model: 'acme/fast-1', input: 'Hi', ...fields })

function assertRefused(fields: Record<string, unknown>, pattern: RegExp): void {
  assert.throws(
    () => decode(fields),
    (error: unknown) => {
      assert.ok(error instanceof GatewayError, String(error))
      assert.equal(error.kind, 'invalid_request')
      assert.match(error.message, pattern)
      return true
    },
  )
}

const pairs = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`key${index}`, 'v']))

test('metadata: 16 pairs pass, 17 are refused', () => {
  assert.deepEqual(decode({ metadata: pairs(16) }).options.metadata, pairs(16))
  assertRefused({ metadata: pairs(17) }, /^metadata: .*16/)
})

test('metadata keys: 64 characters pass, 65 are refused naming the key; brackets are refused', () => {
  decode({ metadata: { ['k'.repeat(64)]: 'v' } })
  assertRefused(
    { metadata: { ['k'.repeat(65)]: 'v' } },
    new RegExp(`metadata: key "${'k'.repeat(65)}" is longer than 64`),
  )
  assertRefused({ metadata: { 'a[0]': 'v' } }, /metadata: key "a\[0\]" must not contain/)
  assertRefused({ metadata: { 'a]': 'v' } }, /must not contain/)
})

test('metadata values: 512 characters pass, 513 are refused naming the key', () => {
  decode({ metadata: { note: 'v'.repeat(512) } })
  assertRefused({ metadata: { note: 'v'.repeat(513) } }, /^metadata\.note: .*512/)
})

test('session_id and user: 256 characters pass, 257 are refused', () => {
  const decoded = decode({ session_id: 's'.repeat(256), user: 'u'.repeat(256) })
  assert.equal(decoded.options.session_id?.length, 256)
  assert.equal(decoded.call.user?.length, 256)
  assertRefused({ session_id: 's'.repeat(257) }, /^session_id: .*256/)
  assertRefused({ user: 'u'.repeat(257) }, /^user: .*256/)
})

test('max_tool_calls: 1 and 30 pass, 0 and 31 are refused, default 30', () => {
  assert.equal(decode({}).options.max_tool_calls, 30)
  assert.equal(decode({ max_tool_calls: 1 }).options.max_tool_calls, 1)
  assert.equal(decode({ max_tool_calls: 30 }).options.max_tool_calls, 30)
  assertRefused({ max_tool_calls: 31 }, /^max_tool_calls: .*30/)
  assertRefused({ max_tool_calls: 0 }, /^max_tool_calls: .*1/)
})

test('previous_response_id, conversation and prompt: null passes, any value is refused saying history goes in input', () => {
  decode({ previous_response_id: null, prompt: null, conversation: null })
  assertRefused({ conversation: 'conv_1' }, /^conversation .*not stored.*full conversation history in `input`/)
  assertRefused({ conversation: { id: 'conv_1' } }, /^conversation .*not stored/)
  assertRefused(
    { previous_response_id: 'resp_1' },
    /previous_response_id .*not stored.*full conversation history in `input`/,
  )
  assertRefused({ prompt: { id: 'pmpt_1' } }, /prompt .*not stored/)
})

test('store: false passes, true is refused', () => {
  decode({ store: false })
  assertRefused({ store: true }, /^store: only false/)
})

test('server tools: the 12 known openrouter: tools are collected, an unknown one is refused', () => {
  const names = [
    'advisor',
    'apply_patch',
    'bash',
    'datetime',
    'fusion',
    'image_generation',
    'experimental__search_models',
    'shell',
    'subagent',
    'tool_search',
    'web_fetch',
    'web_search',
  ]
  const decoded = decode({
    tools: [
      ...names.map((name) => ({ type: `openrouter:${name}` })),
      { type: 'openrouter:web_search', max_results: 3 },
      { type: 'function', name: 'f' },
    ],
  })
  assert.deepEqual(
    decoded.serverTools,
    names.map((name) => `openrouter:${name}`),
  )
  assert.deepEqual(decoded.serverToolSettings['openrouter:web_search'], { max_results: 3 })
  assert.deepEqual(decoded.call.tools, [{ type: 'function', name: 'f' }])
  assertRefused(
    { tools: [{ type: 'openrouter:teleport' }] },
    /^tools\[0\]\.type: unknown server tool "openrouter:teleport"/,
  )
  assertRefused({ tools: [{ type: 'web_search_preview' }] }, /^tools\[0\]\.type: must be one of/)
})

test('stop_server_tools_when: at least one known condition', () => {
  const decoded = decode({
    stop_server_tools_when: [
      { type: 'step_count_is', step_count: 3 },
      { type: 'max_cost', max_cost_in_dollars: 0.5 },
    ],
  })
  assert.equal(decoded.options.stop_server_tools_when?.length, 2)
  assertRefused({ stop_server_tools_when: [] }, /^stop_server_tools_when: .*1/)
  assertRefused(
    { stop_server_tools_when: [{ type: 'after_lunch' }] },
    /^stop_server_tools_when\[0\]\.type: must be one of/,
  )
})

test('service_tier: the spec enum incl. fast and ultrafast; fast is sent upstream as priority', () => {
  assert.equal(decode({ service_tier: 'fast' }).call.service_tier, 'priority')
  assert.equal(decode({ service_tier: 'ultrafast' }).options.service_tier, 'ultrafast')
  assertRefused({ service_tier: 'turbo' }, /^service_tier: must be one of/)
})

test('models: model then models, deduplicated; none when the body names no model', () => {
  assert.deepEqual(decode({ models: ['b/y', 'acme/fast-1', 'c/z'] }).models, ['acme/fast-1', 'b/y', 'c/z'])
  assert.deepEqual(dialect.decode({ input: 'x' }).models, [])
})

test('a string input is one user message; instructions become a leading system message', () => {
  const decoded = decode({ instructions: 'Be brief.' })
  assert.deepEqual(decoded.call.messages, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ])
  assert.equal(decoded.stream, false)
  assert.equal(decoded.echo.instructions, 'Be brief.')
})

test('item input: parts, images, a tool round trip and reasoning carried to the assistant turn', () => {
  const decoded = decode({
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look:' },
          { type: 'input_image', image_url: 'https://x/y.png', detail: 'low' },
        ],
      },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [
          { type: 'summary_text', text: 'A' },
          { type: 'summary_text', text: 'B' },
        ],
        encrypted_content: 'enc',
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"q":1}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true}' },
      { type: 'openrouter:web_search', id: 'ws_1' },
    ],
  })
  assert.deepEqual(decoded.call.messages, [
    { role: 'developer', content: 'Rules.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look:' },
        { type: 'image', source: 'url', url: 'https://x/y.png', detail: 'low' },
      ],
    },
    {
      role: 'assistant',
      content: 'Checking.',
      reasoning: [
        { type: 'reasoning', text: 'A\n\nB', id: 'rs_1', encrypted_content: 'enc', origin: 'openai-responses' },
      ],
      tool_calls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":1}' }],
    },
    { role: 'tool', tool_call_id: 'call_1', name: 'lookup', content: '{"ok":true}' },
  ])
})

test('a sealed reasoning token from another format restores its origin and signature', () => {
  const sealed = 'swy1:' + Buffer.from(JSON.stringify({ origin: 'anthropic', signature: 'sig' })).toString('base64url')
  const decoded = decode({
    input: [
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'T' }], encrypted_content: sealed },
      { role: 'assistant', content: 'ok' },
    ],
  })
  assert.deepEqual(decoded.call.messages[0], {
    role: 'assistant',
    content: 'ok',
    reasoning: [{ type: 'reasoning', text: 'T', origin: 'anthropic', signature: 'sig' }],
  })
})

test('call fields: text.format json_schema, reasoning, sampling, tool_choice and used parameters', () => {
  const decoded = decode({
    stream: true,
    text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
    reasoning: { effort: 'high', summary: 'auto' },
    temperature: 0.2,
    top_p: 0.9,
    max_output_tokens: 100,
    tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
    tool_choice: { type: 'function', name: 'f' },
  })
  assert.equal(decoded.stream, true)
  assert.deepEqual(decoded.call.response_format, {
    type: 'json_schema',
    name: 'out',
    schema: { type: 'object' },
    strict: true,
  })
  assert.deepEqual(decoded.call.reasoning, { effort: 'high', summary: 'auto' })
  assert.deepEqual(decoded.call.tool_choice, { name: 'f' })
  assert.deepEqual([...decoded.usedParameters].sort(), [
    'max_tokens',
    'reasoning',
    'response_format',
    'structured_outputs',
    'temperature',
    'tool_choice',
    'tools',
    'top_p',
  ])
  assert.deepEqual(decode({ reasoning: { effort: 'none' } }).call.reasoning, { enabled: false })
})

test('refusals name the field: input type, unknown part, missing image url, temperature bound', () => {
  assertRefused({ input: 42 }, /^input: /)
  assertRefused(
    { input: [{ role: 'user', content: [{ type: 'input_video' }] }] },
    /^input\[0\]\.content\[0\]\.type: must be one of/,
  )
  assertRefused(
    { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] },
    /^input\[0\]\.content\[0\]\.image_url: is required/,
  )
  assertRefused({ temperature: 2.5 }, /^temperature: .*2/)
  assertRefused({ include: ['everything'] }, /^include\[0\]: must be one of/)
})

test('unknown extra fields are accepted', () => {
  decode({ some_future_field: { a: 1 } })
})
