import { test } from 'node:test'
import assert from 'node:assert/strict'
import { extractPresetConfig } from './extract-preset-config.ts'

test('chat: configuration fields are kept, conversation fields dropped, system and developer messages become the prompt', () => {
  const extracted = extractPresetConfig(
    {
      model: 'openai/gpt-4o',
      models: ['a/b'],
      temperature: 0.7,
      top_p: 0.5,
      top_k: 40,
      max_completion_tokens: 200,
      frequency_penalty: 0.1,
      presence_penalty: -0.1,
      provider: { only: ['acme'] },
      reasoning_effort: 'low',
      response_format: { type: 'json_object' },
      plugins: [{ id: 'web' }],
      stream: true,
      user: 'u-1',
      messages: [
        { role: 'system', content: 'First.' },
        { role: 'developer', content: [{ type: 'text', text: 'Second.' }] },
        { role: 'user', content: 'question' },
        { role: 'assistant', content: 'answer' },
      ],
    },
    'chat',
  )
  assert.deepEqual(extracted, {
    config: {
      model: 'openai/gpt-4o',
      models: ['a/b'],
      temperature: 0.7,
      top_p: 0.5,
      top_k: 40,
      max_tokens: 200,
      frequency_penalty: 0.1,
      presence_penalty: -0.1,
      provider: { only: ['acme'] },
      reasoning: { effort: 'low' },
      response_format: { type: 'json_object' },
      plugins: [{ id: 'web' }],
    },
    systemPrompt: 'First.\n\nSecond.',
  })
})

test('responses: instructions, max_output_tokens, text.format and flat tools', () => {
  const extracted = extractPresetConfig(
    {
      model: 'm',
      instructions: 'Be kind.',
      input: [{ role: 'user', content: 'hi' }],
      max_output_tokens: 10,
      text: { format: { type: 'json_schema', name: 'n', schema: { type: 'object' } } },
      tools: [
        { type: 'function', name: 'f', description: 'd', parameters: { type: 'object' } },
        { type: 'openrouter:web_search' },
      ],
      tool_choice: { type: 'function', name: 'f' },
      reasoning: { effort: 'high', summary: 'auto' },
      previous_response_id: null,
    },
    'responses',
  )
  assert.deepEqual(extracted, {
    config: {
      model: 'm',
      max_tokens: 10,
      response_format: { type: 'json_schema', json_schema: { name: 'n', schema: { type: 'object' } } },
      tools: [
        { type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' } } },
        { type: 'openrouter:web_search' },
      ],
      tool_choice: { type: 'function', function: { name: 'f' } },
      reasoning: { effort: 'high', summary: 'auto' },
    },
    systemPrompt: 'Be kind.',
  })
})

test('messages: system (string or blocks), input_schema tools, thinking', () => {
  const extracted = extractPresetConfig(
    {
      model: 'anthropic/claude',
      max_tokens: 1024,
      system: [
        { type: 'text', text: 'A.' },
        { type: 'text', text: 'B.' },
      ],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      tool_choice: { type: 'any' },
      thinking: { type: 'enabled', budget_tokens: 512 },
      messages: [{ role: 'user', content: 'hi' }],
    },
    'messages',
  )
  assert.deepEqual(extracted, {
    config: {
      model: 'anthropic/claude',
      max_tokens: 1024,
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: 'required',
      reasoning: { max_tokens: 512 },
    },
    systemPrompt: 'A.\n\nB.',
  })
  assert.equal(extractPresetConfig({ system: 'Plain.' }, 'messages').systemPrompt, 'Plain.')
})

test('a body without settings gives an empty config and no prompt; null fields are not saved', () => {
  assert.deepEqual(
    extractPresetConfig({ messages: [{ role: 'user', content: 'x' }], temperature: null, stream: false }, 'chat'),
    { config: {}, systemPrompt: null },
  )
  assert.deepEqual(extractPresetConfig({ instructions: '' }, 'responses'), { config: {}, systemPrompt: null })
})
