import { test } from 'node:test'
import assert from 'node:assert/strict'
import { applyPreset } from './apply-preset.ts'
import { extractPresetConfig } from './extract-preset-config.ts'

const weatherTool = {
  type: 'function',
  function: {
    name: 'weather',
    description: 'Weather now',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
}
const config = {
  model: 'openai/gpt-4o',
  temperature: 0.2,
  top_p: 0.9,
  max_tokens: 300,
  provider: { order: ['acme'], allow_fallbacks: false },
  tools: [weatherTool],
  tool_choice: { type: 'function', function: { name: 'weather' } },
  response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
}

test('chat: the request wins field by field; the preset fills the rest; the system prompt comes first', () => {
  const body = applyPreset(
    config,
    'You are terse.',
    { model: '@preset/bot', temperature: 1, messages: [{ role: 'user', content: 'hi' }] },
    'chat',
  )
  assert.deepEqual(body, {
    model: 'openai/gpt-4o',
    temperature: 1,
    top_p: 0.9,
    max_tokens: 300,
    provider: { order: ['acme'], allow_fallbacks: false },
    tools: [weatherTool],
    tool_choice: { type: 'function', function: { name: 'weather' } },
    response_format: config.response_format,
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'hi' },
    ],
  })
})

test('the model beside the preset reference wins; the reference and the preset field disappear', () => {
  const body = applyPreset(
    { model: 'a/one', temperature: 0.5 },
    null,
    { model: 'b/two@preset/bot', preset: 'bot', messages: [] },
    'chat',
  )
  assert.deepEqual(body, { model: 'b/two', temperature: 0.5, messages: [] })
  const fromField = applyPreset({ model: 'a/one' }, null, { model: 'c/three', preset: 'bot', input: 'x' }, 'responses')
  assert.deepEqual(fromField, { model: 'c/three', input: 'x' })
})

test('provider and reasoning merge one level deep; arrays and other objects are replaced', () => {
  const body = applyPreset(
    { provider: { order: ['acme'], allow_fallbacks: false }, reasoning: { effort: 'high' }, plugins: [{ id: 'web' }] },
    null,
    { provider: { allow_fallbacks: true }, reasoning: { exclude: true }, plugins: [{ id: 'file-parser' }] },
    'chat',
  )
  assert.deepEqual(body, {
    provider: { order: ['acme'], allow_fallbacks: true },
    reasoning: { effort: 'high', exclude: true },
    plugins: [{ id: 'file-parser' }],
  })
})

test('a null request field leaves the preset value in place', () => {
  assert.deepEqual(applyPreset({ temperature: 0.2 }, null, { temperature: null, max_tokens: null }, 'chat'), {
    temperature: 0.2,
    max_tokens: null,
  })
})

test('responses: max_output_tokens, flat function tools, text.format, and the prompt before instructions', () => {
  const body = applyPreset(
    config,
    'Preset rules.',
    { input: 'hi', instructions: 'Answer in French.', text: { verbosity: 'low' } },
    'responses',
  )
  assert.deepEqual(body, {
    model: 'openai/gpt-4o',
    temperature: 0.2,
    top_p: 0.9,
    max_output_tokens: 300,
    provider: { order: ['acme'], allow_fallbacks: false },
    tools: [
      { type: 'function', name: 'weather', description: 'Weather now', parameters: weatherTool.function.parameters },
    ],
    tool_choice: { type: 'function', name: 'weather' },
    text: {
      format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
      verbosity: 'low',
    },
    input: 'hi',
    instructions: 'Preset rules.\n\nAnswer in French.',
  })
  assert.equal(applyPreset({}, 'Only this.', { input: 'x' }, 'responses').instructions, 'Only this.')
})

test('messages: input_schema tools, tool choice, thinking, and the prompt before system (string or blocks)', () => {
  const body = applyPreset(
    { ...config, response_format: undefined, reasoning: { max_tokens: 2048 } },
    'Preset rules.',
    { max_tokens: 50, messages: [{ role: 'user', content: 'hi' }], system: 'Be brief.' },
    'messages',
  )
  assert.deepEqual(body.tools, [
    { name: 'weather', description: 'Weather now', input_schema: weatherTool.function.parameters },
  ])
  assert.deepEqual(body.tool_choice, { type: 'tool', name: 'weather' })
  assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 2048 })
  assert.equal(body.max_tokens, 50)
  assert.equal(body.system, 'Preset rules.\n\nBe brief.')
  const blocks = applyPreset(
    {},
    'Preset rules.',
    { system: [{ type: 'text', text: 'Own.', cache_control: { type: 'ephemeral' } }] },
    'messages',
  )
  assert.deepEqual(blocks.system, [
    { type: 'text', text: 'Preset rules.' },
    { type: 'text', text: 'Own.', cache_control: { type: 'ephemeral' } },
  ])
  assert.deepEqual(applyPreset({ tool_choice: 'required' }, null, {}, 'messages'), { tool_choice: { type: 'any' } })
})

test('server tools pass through every format unchanged', () => {
  const search = { type: 'openrouter:web_search' }
  for (const format of ['chat', 'responses', 'messages'] as const) {
    assert.deepEqual(applyPreset({ tools: [search] }, null, {}, format).tools, [search])
  }
})

test('no system prompt leaves messages untouched; the inputs are never mutated', () => {
  const request = { messages: [{ role: 'user', content: 'hi' }], provider: { sort: 'price' } }
  const presetConfig = { provider: { order: ['x'] } }
  const snapshot = structuredClone({ request, presetConfig })
  const body = applyPreset(presetConfig, null, request, 'chat')
  assert.deepEqual(body.messages, request.messages)
  assert.deepEqual({ request, presetConfig }, snapshot)
})

test('a preset saved from one format applies to another with the same meaning', () => {
  const saved = extractPresetConfig(
    {
      model: 'm',
      max_output_tokens: 99,
      instructions: 'Rules.',
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
      tool_choice: 'required',
      input: 'ignored',
    },
    'responses',
  )
  const chat = applyPreset(saved.config, saved.systemPrompt, { messages: [{ role: 'user', content: 'q' }] }, 'chat')
  assert.deepEqual(chat, {
    model: 'm',
    max_tokens: 99,
    tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    tool_choice: 'required',
    messages: [
      { role: 'system', content: 'Rules.' },
      { role: 'user', content: 'q' },
    ],
  })
  const messages = applyPreset(saved.config, saved.systemPrompt, {}, 'messages')
  assert.deepEqual(messages, {
    model: 'm',
    max_tokens: 99,
    tools: [{ name: 'f', input_schema: { type: 'object' } }],
    tool_choice: { type: 'any' },
    system: 'Rules.',
  })
})
